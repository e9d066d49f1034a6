import StoryMedia
import StoryPipeline

/// The one hand-written command-line tokenizer, following swift-argument-parser's rules:
/// `--` ends the options, `--name=value` and `--name value` both work, short options take
/// `-o value`, every positional is a path (its repeated slashes made one), and an unknown flag
/// is an error that names it and suggests the closest one (among this command's options, and
/// saying which other command has it).
public struct ArgumentParser: Sendable {
    /// The options the command accepts (`--help` is always accepted).
    public let options: [OptionSpec]
    /// Other commands' options as typed, for suggestions: `cube` → `--duration`, `--fps`, `-o`, ….
    let otherCommands: [(command: String, options: [String])]
    /// The command's own ``Command/familiarNames``, looked up before ffmpeg's (``familiarNames``).
    let commandFamiliarNames: [String: [String]]

    /// A parser for `options`.
    public init(options: [OptionSpec]) { self.init(options: options, otherCommands: []) }

    init(
        options: [OptionSpec], otherCommands: [(command: String, options: [String])],
        familiarNames: [String: [String]] = [:]
    ) {
        self.options = options + [Flag.help.spec]
        self.otherCommands = otherCommands
        self.commandFamiliarNames = familiarNames
    }

    /// Splits `arguments` (without the program and command names) into positionals and options,
    /// then checks every option value against its declaration, in the order given (unless
    /// `--help` was asked for), so a bad value stops the command before it does anything.
    public func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        parsed.declared = Set(options.map(\.name))
        var given: [(spec: OptionSpec, value: String)] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                if arguments[index...].contains("") { throw UsageError("an empty argument where a path goes") }
                parsed.positionals += arguments[index...].map(\.collapsingRepeatedSlashes)
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                // Every positional is a path: an empty one (an unset shell variable) names nothing.
                if argument.isEmpty { throw UsageError("an empty argument where a path goes") }
                // ffprobe's and cat's `-` is standard input, which no command reads (a scripting QA
                // pass: `inspect - < clip.mp4` said "-: no such file", 66). After `--` it is a name.
                if argument == "-" {
                    throw UsageError(
                        "- (standard input) is not supported; give a path (./- for a file or folder named -)")
                }
                parsed.positionals.append(argument.collapsingRepeatedSlashes)
                continue
            }
            let (spec, inlineValue) = try lookUp(argument)
            let value: String
            if spec.valueName == nil {
                if inlineValue != nil { throw UsageError("--\(spec.name) takes no value") }
                value = ""
            } else if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
                // `-o $OUT --json` with OUT unset rendered into a folder named `--json` (a QA
                // pass): a separate value that reads as an option (`--json`, `-q`) is refused, as a
                // story handle starting with '-' is. A sign before a digit (`-1`, `-1%`) is a value,
                // and `--output=--json` gives a value that starts with '-'.
                if value.hasPrefix("-"), let second = value.dropFirst().first, second == "-" || second.isLetter {
                    throw UsageError(
                        "\(spec.displayNames) needs a value (\(spec.valueName!)) before '\(value.shortened())'; for a "
                            + "value that starts with '-', write --\(spec.name)=\(value.shortened())")
                }
            } else {
                // Named as given: `-o` alone was "--output needs a value" (a CLI QA pass).
                throw UsageError("\(spec.displayNames) needs a value (\(spec.valueName!))")
            }
            // A value given twice is refused rather than the last one silently winning: a wrapper
            // adding `-o` or `--into` to what a user typed would otherwise redirect the output.
            if spec.valueName != nil, parsed.values[spec.name] != nil {
                throw UsageError("\(spec.displayNames) is given twice; give it once")
            }
            parsed.values[spec.name, default: []].append(value)
            if spec.valueName != nil { given.append((spec, value)) }
        }
        if parsed.values["help"] == nil {
            for (spec, value) in given {
                if let problem = spec.problem(value) { throw UsageError(problem) }
            }
        }
        return parsed
    }

    private func lookUp(_ argument: String) throws -> (OptionSpec, String?) {
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let value = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            if let spec = options.first(where: { $0.isNamed(name) }) { return (spec, value) }
            if name.isEmpty { throw UsageError("'\(argument)' names no option (a lone -- ends the options)") }
            throw unknown("--" + name)
        }
        let letters = argument.dropFirst()
        // `-json`, `-output`: a long name after one dash (ffmpeg's way) is a slip, not `-j son`
        // or `-o utput` (a QA pass: `thumbnail CLIP -output` wrote a poster named `utput`).
        if letters.count > 1, let spec = options.first(where: { $0.isNamed(String(letters)) }) {
            throw UsageError("unknown option '\(argument)'; did you mean '--\(spec.name)'?")
        }
        if letters.count >= 1, let spec = options.first(where: { $0.short == letters.first }) {
            let rest = letters.dropFirst()
            if rest.isEmpty { return (spec, nil) }
            // `-o=a.jpg` is not `--output=a.jpg`: an attached short value is all of it, `=a.jpg`.
            if spec.valueName != nil, rest.first == "=" {
                throw UsageError(
                    "'\(argument)' would be the value '\(rest)'; write -\(letters.first!) \(rest.dropFirst()) "
                        + "or --\(spec.name)=\(rest.dropFirst())")
            }
            if spec.valueName != nil { return (spec, String(rest)) }
            // `-qj 2`: short flags are not bundled (a CLI QA pass: told that `-q` is another
            // command's option, where this one takes it too).
            if rest.allSatisfy(\.isLetter) {
                let apart = letters.map { "-\($0)" }.joined(separator: " ")
                throw UsageError("unknown option '\(argument)'; short options are not combined: write '\(apart)'")
            }
        }
        // Negative numbers are values, not flags.
        if Double(argument) != nil { throw UsageError("unexpected value '\(argument)'") }
        throw unknown(argument)
    }

    /// `unknown option '--duration'; did you mean '--transition-duration'?`, and which other
    /// commands take it (or, when nothing here is close, the closest name they take).
    private func unknown(_ argument: String) -> UsageError {
        var message = "unknown option '\(argument)'"
        // `render --version`: the program's own option, which goes before any command (a CLI QA
        // pass: no hint).
        if argument == "--version" || argument == "-v" {
            return UsageError(message + "; the version is 'storyreel --version'")
        }
        // What ffmpeg and ffmpegthumbnailer call it (a QA pass: `thumbnail --time 1` was pointed
        // to cube's `--size`, `cube -c:v hevc` to `--crf`), or what users of this command call it
        // (``Command/familiarNames``).
        // `-ss=1` is `-ss` (a re-check: no hint).
        let bare = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        let name = String(argument.drop { $0 == "-" })
        let shortGlued = "-" + name.prefix(1)
        // `ingest -oreel`: the command's own familiar short name with its value attached, where
        // the whole is no familiar name (`-ss` is not `-s s`).
        let isFamiliar = commandFamiliarNames[bare] != nil || Self.familiarNames[bare] != nil
        let glued = !argument.hasPrefix("--") && name.count > 1 && !isFamiliar ? commandFamiliarNames[shortGlued] : nil
        if let familiar = familiarOption(for: bare) ?? glued.flatMap(firstTaken) {
            return UsageError(message + "; did you mean '--\(familiar)'?")
        }
        // `render --hevc`: a codec given as a flag is `--codec`'s value (a QA pass: it was
        // pointed to `--help`).
        let lowered = name.lowercased()
        if argument.hasPrefix("--"), options.contains(where: { $0.isNamed("codec") }),
            let codec = VideoEncoder.Codec(rawValue: lowered) ?? VideoEncoder.Codec.familiarNames[lowered]
        {
            return UsageError(message + "; did you mean '--codec \(codec.rawValue)'?")
        }
        // `--j` is `-j` with a dash too many: a one-letter name is only ever a short one.
        let spelled = name.count == 1 ? "-" + name : "--" + name
        if name.count == 1, options.contains(where: { $0.short == name.first }) {
            return UsageError(message + "; did you mean '\(spelled)'?")
        }
        let closest = name.count == 1 ? nil : Self.closest(to: argument, among: options.map { "--" + $0.name })
        if let closest { message += "; did you mean '\(closest)'?" }
        // `---json` where this command takes `--json` is a slip of it, not another command's.
        guard !options.contains(where: { $0.isNamed(name) }) else { return UsageError(message) }
        if let takers = takers(of: spelled) {
            message += " ('\(spelled)' is an option of \(takers))"
        } else if !argument.hasPrefix("--"), name.count > 1, let takers = takers(of: shortGlued) {
            // `ingest -j1`: another command's short option with its value attached (a scripting QA
            // pass: `ingest -j 1` was told, `-j1` not).
            message += " ('\(shortGlued)' is an option of \(takers))"
        } else if closest == nil, name.count > 1,
            let near = Self.closest(
                to: argument, among: otherCommands.flatMap { $0.options.filter { $0.hasPrefix("--") } }),
            let takers = takers(of: near)
        {
            // `inspect --widht`: thumbnail's `--width` (a QA pass: no hint at all).
            message += " ('\(near)' is an option of \(takers))"
        }
        // `inspect -dash.mp4`: a file's name, which goes after `--` (a scripting QA pass: no hint).
        let fileName = argument.split(separator: "/").last ?? ""
        if !argument.hasPrefix("--"), fileName.contains("."),
            fileName.split(separator: ".").last?.contains(where: \.isLetter) == true
        {
            message += "; a path that starts with '-' goes after '--', or as ./\(argument)"
        }
        return UsageError(message)
    }

    /// Options of ffmpeg and ffmpegthumbnailer, by the names of storyreel's that do their work
    /// (the first one the command takes is offered).
    static let familiarNames: [String: [String]] = [
        "-t": ["at", "duration"], "--time": ["at"], "-vf": ["width", "size"], "--vf": ["width", "size"],
        "-filter:v": ["width", "size"], "-ss": ["at"], "--seek": ["at"], "--seek-time": ["at"],
        "-c:v": ["codec"], "--c:v": ["codec"], "-vcodec": ["codec"], "--vcodec": ["codec"], "--encoder": ["codec"],
        "-crf": ["crf"], "-r": ["fps"], "--framerate": ["fps"], "--frame-rate": ["fps"], "-b:v": ["max-bitrate"],
        "--maxrate": ["max-bitrate"], "-maxrate": ["max-bitrate"], "-s": ["width", "size"],
        "--thumbnail-size": ["width"], "-f": ["format"], "-q": ["quality"], "-q:v": ["quality"],
        "--overwrite": ["force"], "-y": ["force"], "-of": ["json"], "-print_format": ["json"],
        "--print-format": ["json"], "-threads": ["jobs"], "--threads": ["jobs"],
    ]

    /// The option (its long name) that does the work of `typed` in this command: the first of
    /// the command's own familiar names for it that it takes, else of ffmpeg's; nil when none.
    private func familiarOption(for typed: String) -> String? {
        commandFamiliarNames[typed].flatMap(firstTaken) ?? Self.familiarNames[typed].flatMap(firstTaken)
    }

    /// The first of `names` (long names) that this command takes.
    private func firstTaken(_ names: [String]) -> String? {
        names.first { name in options.contains { $0.isNamed(name) } }
    }

    /// The other commands that take the option `spelled` (`--fps`, `-o`), joined with commas; nil
    /// when none does.
    private func takers(of spelled: String) -> String? {
        let commands = otherCommands.filter { $0.options.contains(spelled) }.map(\.command)
        return commands.isEmpty ? nil : commands.joined(separator: ", ")
    }

    /// The known name closest to `typed`: ``NameSuggestion``'s pick (the same letters in another
    /// case or spelling, or a small edit distance), else a name that holds it as a whole word
    /// (`--duration` in `--transition-duration`).
    static func closest(to typed: String, among names: [String]) -> String? {
        if let close = NameSuggestion.closest(to: typed, among: names) { return close }
        let words = typed.drop { $0 == "-" }.lowercased()
        guard !words.isEmpty else { return nil }
        return names.filter { name in
            let body = String(name.drop { $0 == "-" })
            return body.hasSuffix("-" + words) || body.hasPrefix(words + "-")
        }.min { $0.count < $1.count }
    }
}
