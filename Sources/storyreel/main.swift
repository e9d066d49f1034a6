import Foundation
import StoryreelCLI

// On Linux the Swift runtime finds the command line through /proc (it reads /proc/self/maps).
// Without /proc (a bare chroot) it gives no arguments at all, not even the program's name, and
// every command would be answered "no command given"; say what is wrong instead.
guard !CommandLine.arguments.isEmpty else {
    FileHandle.standardError.write(Data("storyreel: error: cannot read the command line: is /proc mounted?\n".utf8))
    exit(ExitCode.osError.rawValue)
}
exit(Storyreel.main(Array(CommandLine.arguments.dropFirst())))
