import Foundation
import StoryreelCLI

/// The command line as the kernel holds it, each argument's bytes: what the Swift runtime
/// found, or else `/proc/self/cmdline`. A statically linked Swift runtime finds the arguments
/// just below the environment on the stack, and a preloaded library that calls `setenv` before
/// `main` (libfaketime) moves the environment away: it found none, and storyreel said "is /proc
/// mounted?" with exit 71 (a QA pass). Nil when neither can say (no /proc: a bare chroot).
func rawArguments() -> [[UInt8]]? {
    if CommandLine.argc > 0, !CommandLine.arguments.isEmpty {
        return (0..<Int(CommandLine.argc)).map { index in
            CommandLine.unsafeArgv[index].map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
                .map { $0.map { UInt8(bitPattern: $0) } } ?? []
        }
    }
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: "/proc/self/cmdline")), !data.isEmpty else {
        return nil
    }
    return data.split(separator: 0, omittingEmptySubsequences: false).dropLast(data.last == 0 ? 1 : 0).map(Array.init)
}

// Without /proc (a bare chroot) the Swift runtime gives no arguments at all, not even the
// program's name, and every command would be answered "no command given"; say what is wrong instead.
guard let raw = rawArguments(), !raw.isEmpty else {
    try? FileHandle.standardError.write(
        contentsOf: Data("storyreel: error: cannot read the command line: is /proc mounted?\n".utf8))
    exit(ExitCode.osError.rawValue)
}
// Arguments become Swift strings, which hold Unicode only: a file name that is not UTF-8 (one
// written in Latin-1) would be read as another name, with U+FFFD in place of its odd bytes, and
// be reported missing, or written under that other name. Refuse it instead.
var arguments: [String] = []
for (index, bytes) in raw.enumerated().dropFirst() {
    guard let text = String(validating: bytes, as: UTF8.self) else {
        let shown = Console.escaped(String(decoding: bytes, as: UTF8.self))
        try? FileHandle.standardError.write(
            contentsOf: Data(
                ("storyreel: error: argument \(index) ('\(shown)') is not valid UTF-8; storyreel reads its arguments "
                    + "as UTF-8 (a file name like it: rename the file)\n").utf8))
        exit(ExitCode.usage.rawValue)
    }
    arguments.append(text)
}
exit(Storyreel.main(arguments))
