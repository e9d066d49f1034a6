import Foundation
import StoryreelTestSupport
import Testing

/// `ingest` takes turns with other ingests, never renames over an existing name, and numbers
/// clips without overflow.
@Suite struct IngestNeverLosesAClipTests {
    /// `count` distinct small clips (each made unique by a trailing `free` atom) in `folder`.
    func distinctClips(_ count: Int, in folder: TemporaryFolder) throws -> [String] {
        let sample = try Data(contentsOf: TestEnvironment.samples.appendingPathComponent("portrait-h264.mp4"))
        return try (0..<count).map { index in
            var data = sample
            data.append(contentsOf: [0, 0, 0, 12] + Array("free".utf8) + [0, 0, 0, UInt8(index)])
            return try folder.write("upload-\(index).mp4", data)
        }
    }

    @Test func concurrentIngestsIntoOneStoryKeepEveryClip() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        let clips = try distinctClips(8, in: folder)
        let processes = try clips.map { clip in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestEnvironment.storyreelBinary)
            process.arguments = ["ingest", clip, "--story", "ana", "--into", stories, "--quiet"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: "\(stories)/ana").sorted()
        #expect(names.count == clips.count, "every clip is there: \(names)")
        let numbers = Set(names.map { $0.prefix(4) })
        #expect(numbers == Set((1...clips.count).map { String(format: "%04d", $0)[...] }), "\(names)")
        let copies = try names.map { try Data(contentsOf: URL(fileURLWithPath: "\(stories)/ana/\($0)")) }
        let originals = try clips.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(Set(copies) == Set(originals), "each clip once, byte for byte")
    }

    @Test func hugeNumbersInNamesNeitherCrashNorWrap() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        let story = "\(stories)/ana"
        try FileManager.default.createDirectory(atPath: story, withIntermediateDirectories: true)
        let clips = try distinctClips(7, in: folder)
        let names = ["9223372036854775807.mov", "2147483647.mov", "99999999999999999999999.mp4", "10000-x.mp4"]
        for (name, clip) in zip(names, clips) {
            try FileManager.default.copyItem(atPath: clip, toPath: "\(story)/\(name)")
        }
        let result = try TestEnvironment.storyreel(["ingest", clips[5], "--story", "ana", "--into", stories])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ingested as ana/0001-upload-5.mp4"), "numbers over 9999 are ignored")
        try FileManager.default.copyItem(atPath: clips[4], toPath: "\(story)/9999-last.mp4")
        let after = try TestEnvironment.storyreel(["ingest", clips[6], "--story", "ana", "--into", stories])
        #expect(after.status == 0, "\(after.stderr)")
        // 9999 then 10000-x.mp4: the sequence runs on through the number that continues it.
        #expect(after.stdout.contains("ingested as ana/10001-upload-6.mp4"), "\(after.stdout)")
    }

    @Test func numberingFollowsEveryExistingNameAndChangesNone() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        let story = "\(stories)/ana"
        try FileManager.default.createDirectory(atPath: story, withIntermediateDirectories: true)
        let clips = try distinctClips(2, in: folder)
        // The same clip name already numbered, and a later number taken by someone else's file.
        try FileManager.default.copyItem(atPath: clips[0], toPath: "\(story)/0001-upload-1.mp4")
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: "\(story)/0002-upload-1.mp4"))
        let before = FolderSnapshot(story)
        let result = try TestEnvironment.storyreel(["ingest", clips[1], "--story", "ana", "--into", stories])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ingested as ana/0003-upload-1.mp4"), "\(result.stdout)")
        #expect(before.changed(in: FolderSnapshot(story)).isEmpty)
    }
}
