import Foundation
import StoryreelCLI

// On Linux the Swift runtime finds the command line through /proc (it reads /proc/self/maps).
// Without /proc (a bare chroot) it gives no arguments at all, not even the program's name, and
// every command would be answered "no command given"; say what is wrong instead.
guard !CommandLine.arguments.isEmpty else {
    try? FileHandle.standardError.write(
        contentsOf: Data("storyreel: error: cannot read the command line: is /proc mounted?\n".utf8))
    exit(ExitCode.osError.rawValue)
}
// Arguments become Swift strings, which hold Unicode only: a file name that is not UTF-8 (one
// written in Latin-1) would be read as another name, with U+FFFD in place of its odd bytes, and
// be reported missing, or written under that other name. Refuse it instead.
for index in 1..<Int(CommandLine.argc) {
    guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
    let shown = Console.escaped(CommandLine.arguments.indices.contains(index) ? CommandLine.arguments[index] : "?")
    try? FileHandle.standardError.write(
        contentsOf: Data(
            ("storyreel: error: argument \(index) ('\(shown)') is not valid UTF-8; storyreel reads its arguments "
                + "as UTF-8 (a file name like it: rename the file)\n").utf8))
    exit(ExitCode.usage.rawValue)
}
exit(Storyreel.main(Array(CommandLine.arguments.dropFirst())))
