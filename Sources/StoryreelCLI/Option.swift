import StoryPipeline

/// A typed key for an option that takes a value: its name, type, default and accepted values,
/// declared once. The parser checks every value against it before the command runs, `--help`
/// shows its default and range from it, and `arguments[option]` reads it as a `Value`.
///
/// ```swift
/// static let timeout = Option.number("timeout", "SECONDS", "Give up after this long.", default: 30, range: .seconds)
/// ```
public struct Option<Value: Sendable>: OptionDeclaration {
    public let spec: OptionSpec
    /// The value of a text that ``OptionSpec/problem`` accepted.
    let convert: @Sendable (String) -> Value?
    /// The value when the option is not given.
    let defaultValue: @Sendable () -> Value

    /// An option read by `convert` (nil: refused, the error says `accepted`, and what `range`
    /// suggests instead), `defaultValue` when not given (help shows `defaultText`).
    init(
        _ name: String, short: Character? = nil, aliases: [String] = [], _ valueName: String, _ help: String,
        defaultText: String?, accepted: String?, range: OptionRange? = nil,
        default defaultValue: @escaping @Sendable () -> Value,
        problem: (@Sendable (String) -> String?)? = nil, convert: @escaping @Sendable (String) -> Value?
    ) {
        let check: @Sendable (String) -> String? =
            problem ?? { text in
                guard convert(text) == nil else { return nil }
                let refusal = "--\(name) must be \(accepted ?? "valid"), got '\(text)'"
                return range?.suggestion(for: text).map { refusal + "; did you mean '\($0)'?" } ?? refusal
            }
        spec = OptionSpec(
            name: name, short: short, aliases: aliases, valueName: valueName, help: help, defaultText: defaultText,
            accepted: accepted, problem: check)
        self.convert = convert
        self.defaultValue = defaultValue
    }
}

extension Option where Value == Double {
    /// A finite number in `range`, `default` when not given.
    static func number(
        _ name: String, _ valueName: String, _ help: String, default value: Double, range: OptionRange
    ) -> Option {
        Option(
            name, valueName, help, defaultText: OptionRange.format(value), accepted: range.description, range: range,
            default: { value }, convert: { range.number($0) })
    }
}

extension Option where Value == Int {
    /// A whole number in `range`, `default` when not given (help shows `defaultText` if given).
    static func wholeNumber(
        _ name: String, short: Character? = nil, _ valueName: String, _ help: String,
        default value: @escaping @Sendable @autoclosure () -> Int, defaultText: String? = nil, range: OptionRange
    ) -> Option {
        Option(
            name, short: short, valueName, help, defaultText: defaultText ?? String(value()),
            accepted: range.description, range: range, default: value, convert: { range.wholeNumber($0) })
    }

    /// `--jobs N`: work done at once, 1 to 1024, all cores by default.
    static func jobs(_ help: String) -> Option {
        wholeNumber("jobs", short: "j", "N", help, default: Parallel.coreCount, defaultText: "all cores", range: .jobs)
    }
}

extension Option where Value == String? {
    /// A free text or path, nil when not given.
    static func text(
        _ name: String, short: Character? = nil, aliases: [String] = [], _ valueName: String, _ help: String
    ) -> Option {
        // An empty value may come as `--story=`: both names (`--output=` was told "-o needs a …", a
        // CLI QA pass).
        let bothNames = OptionSpec.displayNames(name: name, short: short)
        return Option(
            name, short: short, aliases: aliases, valueName, help, defaultText: nil, accepted: nil, default: { nil },
            problem: { $0.isEmpty ? "\(bothNames) needs a value, got an empty one" : nil },
            convert: { $0 })
    }

    /// A path to read a folder from (its repeated slashes made one): `-` (stdin) is refused, as
    /// no folder can come from there (`plan --bundle -` planned for a folder named `-`; a QA pass).
    static func folderPath(_ name: String, _ valueName: String, _ help: String) -> Option {
        Option(
            name, valueName, help, defaultText: nil, accepted: nil, default: { nil },
            problem: { text in
                if text.isEmpty { return "--\(name) needs a path, got an empty one" }
                return text == "-" ? "--\(name) - (standard input) is not supported here; give a folder's path" : nil
            },
            convert: { $0.collapsingRepeatedSlashes })
    }

    /// A path to write (its repeated slashes made one): `-` (stdout) is refused, as the command
    /// cannot write there, and so is a `file`'s path that names a folder (`x.mp4/`), which failed
    /// only once the work was done.
    static func outputPath(
        _ name: String, short: Character? = nil, aliases: [String] = [], _ valueName: String, _ help: String,
        file: Bool = false
    ) -> Option {
        let flagName = short.map { "-\($0)" } ?? "--\(name)"
        // An empty value may come as `--output=`: both names (it was told "-o needs a …", a CLI QA pass).
        let bothNames = OptionSpec.displayNames(name: name, short: short)
        return Option(
            name, short: short, aliases: aliases, valueName, help, defaultText: nil, accepted: nil, default: { nil },
            problem: { text in
                if text.isEmpty { return "\(bothNames) needs a path, got an empty one" }
                if text == "-" { return "\(flagName) - (standard output) is not supported here; give a path" }
                return file ? Self.folderNameProblem(text, flagName: flagName) : nil
            },
            convert: { $0.collapsingRepeatedSlashes })
    }

    /// `-o`/`--output` (with `--out` as a hidden alias): a path to write, `-` refused.
    static func output(_ valueName: String, _ help: String, file: Bool = false) -> Option {
        outputPath("output", short: "o", aliases: ["out"], valueName, help, file: file)
    }

    /// Why `path`, given to `flagName` for a file, names a folder instead (it ends in `/`, `/.`
    /// or `/..`, or is `.` or `..`), or nil.
    static func folderNameProblem(_ path: String, flagName: String) -> String? {
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard path.hasSuffix("/") || last == "." || last == ".." else { return nil }
        return "\(flagName) \(path) names a folder; give a file name"
    }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the cases' raw values, in any case (`HEVC`, as `thumbnail --format JPG` is read;
    /// a QA pass found the two commands differing); `default` when not given. A value in
    /// `familiarValues` (lowercased: `h265` for `hevc`) is refused as any other, with the case it
    /// names as the hint: `--codec must be one of h264, hevc, got 'h265'; did you mean 'hevc'?`;
    /// else a slip of a case's name (`hecv`, `forwrd`) is named as one is for an option's name.
    static func choice(
        _ name: String, _ help: String, default value: Value, familiarValues: [String: Value] = [:]
    ) -> Option {
        let names = Value.allCases.map(\.rawValue)
        let accepted = "one of \(names.joined(separator: ", "))"
        let convert: @Sendable (String) -> Value? = { text in
            Value.allCases.first { $0.rawValue.lowercased() == text.lowercased() }
        }
        return Option(
            name, names.joined(separator: "|"), help, defaultText: value.rawValue, accepted: accepted,
            default: { value },
            problem: { text in
                guard convert(text) == nil else { return nil }
                let refusal = "--\(name) must be \(accepted), got '\(text)'"
                let meant =
                    familiarValues[text.lowercased()]?.rawValue ?? NameSuggestion.closest(to: text, among: names)
                return meant.map { refusal + "; did you mean '\($0)'?" } ?? refusal
            },
            convert: convert)
    }
}

extension Option {
    /// A value read through `range` (a size, a bit rate, a shard, a time), or nil when not given.
    static func ranged<Wrapped>(
        _ name: String, _ valueName: String, _ help: String, defaultText: String? = nil, range: OptionRange,
        _ convert: @escaping @Sendable (OptionRange, String) -> Wrapped?
    ) -> Option where Value == Wrapped? {
        Option(
            name, valueName, help, defaultText: defaultText, accepted: range.description, range: range,
            default: { nil }, convert: { text in convert(range, text).map { .some($0) } })
    }

    /// A value read through `range`, or `auto`; `.automatic` when not given.
    static func rangedOrAutomatic<Wrapped>(
        _ name: String, _ valueName: String, _ help: String, defaultText: String, range: OptionRange,
        _ convert: @escaping @Sendable (OptionRange, String) -> Wrapped?
    ) -> Option where Value == OrAutomatic<Wrapped> {
        let range = range.orAutomatic
        return Option(
            name, valueName, help, defaultText: defaultText, accepted: range.description, range: range,
            default: { .automatic },
            convert: { text in OptionRange.isAutomatic(text) ? .automatic : convert(range, text).map { .fixed($0) } })
    }
}
