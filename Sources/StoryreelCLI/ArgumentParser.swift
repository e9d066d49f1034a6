/// The one hand-written command-line tokenizer, following swift-argument-parser's rules:
/// `--` ends the options, `--name=value` and `--name value` both work, short options take
/// `-o value`, and an unknown flag is an error that names it and suggests the closest one.
public struct ArgumentParser: Sendable {
    /// The options the command accepts (`--help` is always accepted).
    public let options: [OptionSpec]

    /// A parser for `options`.
    public init(options: [OptionSpec]) { self.options = options }

    /// Splits `arguments` (without the program and command names) into positionals and options,
    /// then checks every value of an option that declares an ``OptionRange``, in the order given
    /// (unless `--help` was asked for), so a bad value stops the command before it does anything.
    public func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        for spec in options {
            if let range = spec.range { parsed.ranges[spec.name] = range }
        }
        var given: [(name: String, value: String)] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                parsed.positionals += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                parsed.positionals.append(argument)
                continue
            }
            let (spec, inlineValue) = try lookUp(argument)
            if spec.valueName == nil {
                if inlineValue != nil { throw UsageError("--\(spec.name) takes no value") }
                parsed.values[spec.name, default: []].append("")
            } else if let inlineValue {
                parsed.values[spec.name, default: []].append(inlineValue)
                given.append((spec.name, inlineValue))
            } else if index < arguments.count {
                parsed.values[spec.name, default: []].append(arguments[index])
                given.append((spec.name, arguments[index]))
                index += 1
            } else {
                throw UsageError("--\(spec.name) needs a value (\(spec.valueName!))")
            }
        }
        if !parsed.flag("help") {
            for (name, value) in given { try parsed.check(value, of: name) }
        }
        return parsed
    }

    private func lookUp(_ argument: String) throws -> (OptionSpec, String?) {
        let all = options + [.flag("help", short: "h", "Show this help.")]
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let value = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            if let spec = all.first(where: { $0.name == name }) { return (spec, value) }
            throw unknown(argument: "--" + name, among: all.map { "--" + $0.name })
        }
        let letters = argument.dropFirst()
        if letters.count >= 1, let spec = all.first(where: { $0.short == letters.first }) {
            let rest = letters.dropFirst()
            if rest.isEmpty { return (spec, nil) }
            if spec.valueName != nil { return (spec, String(rest)) }
        }
        // Negative numbers are values, not flags.
        if Double(argument) != nil { throw UsageError("unexpected value '\(argument)'") }
        throw unknown(argument: argument, among: all.map { "--" + $0.name })
    }

    private func unknown(argument: String, among names: [String]) -> UsageError {
        let closest = names.min { editDistance($0, argument) < editDistance($1, argument) }
        if let closest, editDistance(closest, argument) <= max(2, argument.count / 3) {
            return UsageError("unknown option '\(argument)'; did you mean '\(closest)'?")
        }
        return UsageError("unknown option '\(argument)'")
    }

    /// Levenshtein distance between two strings.
    func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
