import Foundation
import StoryreelCLI

exit(Storyreel.main(Array(CommandLine.arguments.dropFirst())))
