import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// The stories folder conventions: natural order, handles, story.json, read stories last.
@Suite struct StoryInputTests {
    /// Makes each of `files` (paths relative to `stories`, folders made as needed), holding "x".
    static func createFiles(_ files: [String], in stories: String) throws {
        for file in files {
            let path = "\(stories)/\(file)"
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        }
    }

    @Test func naturalOrderIsNumericAwareAndCaseInsensitive() {
        let names = ["img_10.mov", "IMG_2.MOV", "IMG_1.mov", "b.mp4", "A.mp4", "10.mp4", "2.mp4", "1.mp4"]
        #expect(
            names.sorted(by: NaturalOrder.areInIncreasingOrder) == [
                "1.mp4", "2.mp4", "10.mp4", "A.mp4", "b.mp4", "IMG_1.mov", "IMG_2.MOV", "img_10.mov",
            ])
        #expect(NaturalOrder.areInIncreasingOrder("x9", "x010"))
        #expect(!NaturalOrder.areInIncreasingOrder("x010", "x9"))
    }

    /// From a QA pass: numbers came before `.` and `_`, and accented letters after `z`, where
    /// Finder (`localizedStandardCompare`) puts punctuation before numbers and `ç` among the `c`s.
    @Test func naturalOrderPutsPunctuationBeforeNumbersAndAccentsWithTheirLetters() {
        let names = ["d.mp4", "ça.mp4", "clip2.mp4", "clip.mp4", "clip1.mp4", "cz.mp4"]
        #expect(
            names.sorted(by: NaturalOrder.areInIncreasingOrder) == [
                "ça.mp4", "clip.mp4", "clip1.mp4", "clip2.mp4", "cz.mp4", "d.mp4",
            ])
        #expect(["ana", "9", "_x"].sorted(by: NaturalOrder.areInIncreasingOrder) == ["_x", "9", "ana"])
        #expect(["b10.mp4", "B.mp4"].sorted(by: NaturalOrder.areInIncreasingOrder) == ["B.mp4", "b10.mp4"])
        #expect(
            ["a1.mp4", "A2.mp4", "a.m4v"].sorted(by: NaturalOrder.areInIncreasingOrder) == [
                "a.m4v", "a1.mp4", "A2.mp4",
            ])
        // Equal but for accents, case or leading zeros: unaccented, lowercase, fewer zeros first;
        // NFC and NFD spellings of one name are two names, ordered by their bytes.
        #expect(["cb", "\u{E7}a", "ca", "Ca"].sorted(by: NaturalOrder.areInIncreasingOrder).prefix(2) == ["ca", "Ca"])
        #expect(["x01", "x1"].sorted(by: NaturalOrder.areInIncreasingOrder) == ["x1", "x01"])
        // A re-check against Foundation's localizedStandardCompare (ICU's root collation):
        // punctuation in ICU's order, letters with no decomposition among the ones they stand
        // for, compatibility forms as what they stand for.
        #expect(
            ["VID-1.mp4", "clip.mp4", "VID_1.mp4", "clip-1.mp4", "clip_1.mp4", "(1).mp4", "_intro.mp4"].sorted(
                by: NaturalOrder.areInIncreasingOrder) == [
                    "_intro.mp4", "(1).mp4", "clip_1.mp4", "clip-1.mp4", "clip.mp4", "VID_1.mp4", "VID-1.mp4",
                ])
        #expect(
            ["af", "Lz", "Oz", "zoo", "\u{E6}ble", "\u{D8}re", "\u{141}ukasz"].sorted(
                by: NaturalOrder.areInIncreasingOrder)
                == ["\u{E6}ble", "af", "\u{141}ukasz", "Lz", "\u{D8}re", "Oz", "zoo"])
        #expect(NaturalOrder.areInIncreasingOrder("stra\u{DF}e", "strasse2"))
        #expect(NaturalOrder.areInIncreasingOrder("\u{FB01}le", "zoo"))
        #expect(NaturalOrder.areInIncreasingOrder("9", "\u{FF11}\u{FF10}"), "full-width 10 is 10")
        let composed = "caf\u{E9}.mp4"
        let decomposed = "cafe\u{301}.mp4"
        #expect(
            NaturalOrder.areInIncreasingOrder(decomposed, composed)
                != NaturalOrder.areInIncreasingOrder(composed, decomposed))
    }

    /// Every pair of these names that Foundation's `localizedStandardCompare` (Finder's order,
    /// ICU's root collation with numbers) tells apart goes the same way here. From a QA pass:
    /// decimal digits of other scripts (`٣`, `३`, `๓`) sorted before every number, and digits
    /// that are not decimal (`²`) among the numbers, where Foundation reads the first as numbers
    /// and puts the second after them. (Names equal but for leading zeros or a digit's form,
    /// `010` and `１０`, `¹` and `①`, go by storyreel's own tie-breaks, which differ.)
    @Test func theOrderAgreesWithFoundationsStandardCompare() {
        let names = [
            "1.mp4", "2.mp4", "5.mp4", "10.mp4", "19.mp4", "21.mp4", "\u{663}.mp4", "\u{967}.mp4",
            "\u{E53}.mp4", "\u{662}0.mp4", "\u{663}\u{663}.mp4", "\u{FF11}\u{FF10}.mp4", "\u{1D7D5}.mp4", "\u{B2}.mp4",
            "\u{B2}a.mp4", "\u{B3}.mp4", "\u{2070}.mp4", "\u{B9}.mp4", "\u{BD}.mp4", "\u{2460}0.mp4",
            "x1.mp4", "x2.mp4", "x\u{662}.mp4", "x3.mp4", "x10.mp4", "x\u{662}0.mp4", "x\u{B2}.mp4", "_x.mp4",
            "(1).mp4", "clip.mp4", "clip-1.mp4", "clip_1.mp4", "a.mp4", "\u{E9}.mp4", "z.mp4", "\u{E7}a.mp4",
            "\u{E6}ble.mp4", "\u{FB01}le.mp4", "IMG_2.MOV", "img_10.mov", "\u{4E09}.mp4", "\u{216B}.mp4",
            // A digit under a mark is the digit; a lone mark, a soft hyphen, a joiner pass (a re-check).
            "2\u{301}.mp4", "1\u{FE0F}\u{20E3}x.mp4", "\u{301}b.mp4", "a\u{AD}2.mp4", "a\u{200D}3.mp4",
        ]
        for a in names {
            for b in names where a != b {
                let foundation = a.localizedStandardCompare(b)
                guard foundation != .orderedSame else { continue }
                #expect(
                    NaturalOrder.areInIncreasingOrder(a, b) == (foundation == .orderedAscending),
                    "\(a) and \(b): Foundation says \(foundation == .orderedAscending ? "before" : "after")")
            }
        }
    }

    /// The binary search `ingest` places names with agrees with sorting: the names past the
    /// index are exactly those that sort after the name.
    @Test func insertionIndexAgreesWithTheOrder() {
        let sorted = ["1.mp4", "2.mp4", "IMG_2.MOV", "img_10.mov", "img_10.mov.", "zz.mp4"].sorted(
            by: NaturalOrder.areInIncreasingOrder)
        for name in ["0.mp4", "1.mp4", "10.mp4", "IMG_3.mov", "img_10.mov", "zzz", "0001-a.mp4", ""] {
            let index = NaturalOrder.insertionIndex(of: name, in: sorted)
            #expect(Array(sorted[index...]) == sorted.filter { NaturalOrder.areInIncreasingOrder(name, $0) }, "\(name)")
        }
    }

    @Test func handlesAreValidated() {
        #expect(StoryHandle.problem(with: "ana.lima") == nil)
        #expect(StoryHandle.problem(with: "ben_k-2") == nil)
        #expect(StoryHandle.problem(with: ".hidden") != nil)
        #expect(StoryHandle.problem(with: "") != nil)
        #expect(StoryHandle.problem(with: "has space") != nil)
        #expect(StoryHandle.problem(with: "émile") != nil)
        #expect(StoryHandle.problem(with: String(repeating: "a", count: 65)) != nil)
        #expect(StoryHandle.problem(with: String(repeating: "a", count: 64)) == nil)
    }

    /// `ingest` makes a new story's folder, then copies the clip in under a temporary name: a
    /// render in between skipped the story as having no playable clip and exited 65.
    @Test func aNewStoryWhoseFirstClipIsStillBeingIngestedIsNotAFailure() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: "\(stories)/ana/1.mp4")
        try FileManager.default.createDirectory(atPath: "\(stories)/zoe", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: "\(stories)/zoe/.0001-upload.mp4.a1B2c3.storyreel-tmp", contents: Data())
        // A folder with nothing in it, or only someone's dot-file or avatar, holds no story yet
        // either (a QA pass: it was skipped as "no playable clip", and every render exited 65).
        try FileManager.default.createDirectory(atPath: "\(stories)/empty", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: "\(stories)/empty/.notes", contents: Data())
        try FileManager.default.createDirectory(atPath: "\(stories)/faced", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("stories/ben_k/avatar.jpg"), toPath: "\(stories)/faced/avatar.jpg")
        let input = try StoryInput.load(stories)
        #expect(input.stories.map(\.handle) == ["ana"])
        #expect(input.skipped.isEmpty)
        #expect(
            input.warnings == [
                "empty: holds no clip; left out until one is added",
                "faced: holds no clip; left out until one is added",
                "zoe: no clip yet, only an ingest's temporary copy; not rendered this time",
            ])
    }

    /// Only a story's own folder is read. From a QA pass: clips filed in a dated subfolder
    /// (`ana/2024-06-01/2.mp4`) were left out with exit 0 and no word, and a story whose clips
    /// were all one level down was skipped as having no playable clip, with no hint why.
    @Test func aFolderOfClipsInsideAStoryIsNamedInAWarning() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        let files = [
            "ana/1.mp4", "ana/2024-06-01/2.mp4", "ana/2024-06-01/3.MOV", "ana/2024-06-01/notes.txt",
            "ana/raw/notes.txt", "ana/.drafts/4.mp4", "zoe/only/1.m4v",
        ]
        try Self.createFiles(files, in: stories)
        // A link to a folder of clips is not a folder inside the story: not listed, not named.
        try FileManager.default.createSymbolicLink(
            atPath: "\(stories)/ana/linked", withDestinationPath: "\(stories)/ana/2024-06-01")
        let input = try StoryInput.load(stories)
        #expect(input.stories.map(\.handle) == ["ana"])
        #expect(input.stories.map(\.clips) == [["ana/1.mp4"]])
        #expect(input.skipped.isEmpty)
        #expect(
            input.warnings == [
                "ana/2024-06-01: not read: a folder inside a story, holding 2 clips; "
                    + "a story's clips go directly in its folder",
                "zoe/only: not read: a folder inside a story, holding 1 clip; a story's clips go directly in its folder",
                "zoe: holds no clip; left out until one is added",
            ])
    }

    /// A video in a container storyreel does not play is named, where it used to leave the
    /// story in silence (a QA pass: a `.webm` upload), as is a photo (a QA pass of stills), but
    /// not the avatar; so is a blank display name, which gave a
    /// story with no name under its avatar; the handle is shown instead.
    @Test func otherVideosAndABlankDisplayNameAreNamedInWarnings() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        let files = [
            "ana/1.mp4", "ana/4.WEBM", "ana/2.mkv", "ana/notes.txt", "ana/app.ts", "ana/.5.webm", "zoe/1.mp4",
            "zoe/story.json", "ana/avatar.jpg", "ana/beach.JPG", "ana/IMG_0004.HEIC", "ana/.thumb.png",
        ]
        try Self.createFiles(files, in: stories)
        try Data(#"{"displayName": " \t"}"#.utf8).write(to: URL(fileURLWithPath: "\(stories)/zoe/story.json"))
        try FileManager.default.createDirectory(atPath: "\(stories)/ana/old.mkv", withIntermediateDirectories: true)
        let input = try StoryInput.load(stories)
        #expect(input.stories.map(\.clips) == [["ana/1.mp4"], ["zoe/1.mp4"]])
        #expect(input.stories.map(\.displayName) == ["ana", "zoe"])
        #expect(
            input.warnings == [
                "ana/2.mkv: not played: storyreel plays .mov, .mp4 and .m4v clips",
                "ana/4.WEBM: not played: storyreel plays .mov, .mp4 and .m4v clips",
                "ana/beach.JPG: not played: a still is no story item (storyreel plays .mov, .mp4 and .m4v clips); "
                    + "to show a photo, make it a clip first",
                "ana/IMG_0004.HEIC: not played: a still is no story item (storyreel plays .mov, .mp4 and .m4v "
                    + "clips); to show a photo, make it a clip first",
                "zoe/story.json: \"displayName\" is blank; the handle \"zoe\" is shown",
            ])

        let spec = folder.path("spec.json")
        let specText =
            #"{"stories": [{"handle": "ana", "displayName": "", "items": ["stories/ana/1.mp4"]},"#
            + #" {"handle": "zoe", "displayName": "Zoë", "items": ["stories/zoe/1.mp4"]}]}"#
        try Data(specText.utf8).write(to: URL(fileURLWithPath: spec))
        let fromSpec = try StoryInput.load(spec)
        #expect(fromSpec.stories.map(\.displayName) == ["ana", "Zoë"])
        #expect(fromSpec.warnings == ["\(spec): stories[0]: \"displayName\" is blank; the handle \"ana\" is shown"])
    }

    /// From a QA pass: names of invisible characters only (U+200B, U+FEFF, a Hangul filler) were
    /// written as they were and left an empty caption, while NEL was blank to render but not to
    /// the page; and a 15 MB name made a 90 MB player page. Blank is StoryreelKit's rule, and a
    /// name over 100 characters is cut there, at a character's end, with a warning.
    @Test func invisibleNamesAreBlankAndLongOnesAreCut() {
        for blank in ["\u{200B}", "\u{FEFF}", "\u{3164}", "\u{85}", "\u{200B} \u{115F}\u{FFA0}", ""] {
            let shown = StoryInput.shownName(blank, handle: "zoe")
            #expect(shown.name == "zoe", "\(blank.unicodeScalars.map(\.value))")
            #expect(shown.warning == "\"displayName\" is blank; the handle \"zoe\" is shown")
        }
        #expect(StoryInput.shownName("Zoë\u{200B}", handle: "zoe") == ("Zoë\u{200B}", nil))
        #expect(StoryInput.shownName(String(repeating: "a", count: 100), handle: "zoe").warning == nil)

        let long = StoryInput.shownName(String(repeating: "<", count: 1_000_000), handle: "zoe")
        #expect(long.name == String(repeating: "<", count: 100))
        #expect(
            long.warning == "\"displayName\" is 1000000 characters long, over 100; it is cut to \""
                + String(repeating: "<", count: 80) + "…\"")
        // A family emoji (5 scalars) that would end past 100 is left out whole, never split.
        let family = "👩‍👩‍👧"
        let emoji = StoryInput.shownName(String(repeating: "a", count: 98) + family, handle: "zoe")
        #expect(emoji.name == String(repeating: "a", count: 98))
        // Too long, and nothing to show in its first 100 scalars: not called blank (a review).
        for unshown in ["a" + String(repeating: "\u{301}", count: 150), String(repeating: " ", count: 100) + "Zoë"] {
            let shown = StoryInput.shownName(unshown, handle: "zoe")
            #expect(shown.name == "zoe")
            #expect(
                shown.warning
                    == "\"displayName\" is \(unshown.unicodeScalars.count) characters long, over 100, and its "
                    + "first 100 show nothing; the handle \"zoe\" is shown")
        }
    }

    /// From a QA pass, names passed over in silence are said, and a folder named like a clip is a
    /// folder inside the story (it was skipped as "a folder, not a file", and the render failed).
    @Test func filesThatLookMeantToPlayOrToBeTheAvatarAreNamed() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        let files = [
            "a/1.mp4", "a/b.mp4.", "a/c.MOV ", "a/Avatar.JPG", "a/avatar.jpg.", "b/1.mp4", "b/avatar.jpg",
            "b/avatar.png",
            "c/1.mp4",
        ]
        try Self.createFiles(files, in: stories)
        try FileManager.default.createDirectory(atPath: "\(stories)/c/old.mp4", withIntermediateDirectories: true)
        let input = try StoryInput.load(stories)
        #expect(input.stories.map(\.clips) == [["a/1.mp4"], ["b/1.mp4"], ["c/1.mp4"]])
        #expect(input.stories.map(\.avatar) == [nil, "b/avatar.jpg", nil])
        #expect(input.skipped.isEmpty, "\(input.skipped)")
        #expect(
            input.warnings == [
                "a/Avatar.JPG: not the avatar: a story's avatar is named avatar.jpg or avatar.png",
                "a/avatar.jpg.: not the avatar: a story's avatar is named avatar.jpg or avatar.png",
                "a/b.mp4.: not played: its name goes on after the extension (a '.' or a space); rename it",
                "a/c.MOV : not played: its name goes on after the extension (a '.' or a space); rename it",
                "b/avatar.png: not the avatar: avatar.jpg is; keep one",
            ])
    }

    /// Unknown keys are named ten at a time, each cut at 80 characters (a QA pass: a 1 MB key gave
    /// a 1 MB warning line, and a file of many keys as many lines).
    @Test func unknownKeysAreCountedPastTenAndCut() {
        var object: [String: Any] = ["displayName": "Zoë"]
        for index in 0..<12 { object["extra\(index)"] = 1 }
        object[String(repeating: "K", count: 1_000_000)] = 1
        let warnings = StoryFields.storyJSON.unknownKeyWarnings(in: object)
        #expect(warnings.count == 11)
        #expect(warnings.first == "unknown key \"" + String(repeating: "K", count: 80) + "…\"; ignored")
        #expect(warnings.last == "3 more unknown keys; ignored")

        // A slip is named first among many, and one more is one key (a review).
        var many: [String: Any] = ["isreed": true]
        for index in 0..<10 { many["extra\(index)"] = 1 }
        let named = StoryFields.storyJSON.unknownKeyWarnings(in: many)
        #expect(named.first == "unknown key \"isreed\" (did you mean \"isRead\"?); ignored")
        #expect(named.last == "1 more unknown key; ignored")
    }

    /// Two clips whose names differ only in Unicode normalization (`café` composed, NFC, and
    /// decomposed, NFD) are two files here but one name to Swift's strings, and to macOS and
    /// iOS: a render gave the second the first one's poster and exited 0, or dropped both as
    /// "changed while storyreel read it". The first in byte order plays; the other is skipped.
    @Test func clipNamesThatDifferOnlyInNormalizationAreNotBothRendered() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/u", withIntermediateDirectories: true)
        let composed = "caf\u{E9}.mp4"
        let decomposed = "cafe\u{301}.mp4"
        #expect(composed == decomposed && !composed.utf8.elementsEqual(decomposed.utf8))
        for name in [composed, decomposed] {
            try FileManager.default.copyItem(
                atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: "\(stories)/u/\(name)")
        }
        let input = try StoryInput.load(stories)
        let clips = try #require(input.stories.first?.clips)
        #expect(clips.count == 1)
        #expect(clips.first.map { Array($0.utf8) } == Array("u/\(decomposed)".utf8), "'e' (0x65) sorts before 0xC3")
        #expect(input.skipped.count == 1)
        #expect(input.skipped.first.map { Array($0.path.utf8) } == Array("u/\(composed)".utf8))
        #expect(
            input.skipped.first?.reason.hasPrefix(
                "its name is the composed (NFC) spelling of \"\(decomposed)\", which is here in the decomposed (NFD) one"
            )
                == true, "\(input.skipped)")

        // A spec's items likewise: the second spelling of a path is skipped, the same one twice plays twice.
        let spec = folder.path("stories/spec.json")
        // Through `..` too: the file each leads to is compared.
        let items = [composed, decomposed, composed, "../u/\(decomposed)"].map { "\"u/\($0)\"" }
            .joined(separator: ", ")
        try Data(#"{"stories": [{"handle": "u", "items": [\#(items)]}]}"#.utf8).write(to: URL(fileURLWithPath: spec))
        let fromSpec = try StoryInput.load(spec)
        #expect(
            fromSpec.stories.first?.clips.map { Array($0.utf8) } == [
                Array("u/\(composed)".utf8), Array("u/\(composed)".utf8),
            ])
        #expect(fromSpec.skipped.map(\.reason).allSatisfy { $0.hasPrefix("its name is the decomposed (NFD) spelling") })
        #expect(fromSpec.skipped.map(\.path) == ["u/\(decomposed)", "u/../u/\(decomposed)"])
    }

    /// A name that is not UTF-8 was listed with U+FFFD for its bad bytes: a clip `\xff.mp4`
    /// became `\u{FFFD}.mp4`, so another file of that name played in its place (three times
    /// for three such clips) and the clip vanished without a word. It is skipped, saying why;
    /// a folder of such a name too.
    @Test func namesThatAreNotUTF8AreSkippedNotReadAsAnotherName() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/u", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: "\(stories)/u/\u{FFFD}.mp4")
        let clip = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.sample("portrait-h264.mp4")))
        for bad: [UInt8] in [[0xFF], [0xFE]] {
            let path = Array("\(stories)/u/".utf8) + bad + Array(".mp4".utf8)
            let descriptor = open(path.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY | O_EXCL, 0o644)
            try #require(descriptor >= 0)
            _ = clip.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        try #require(mkdir((Array("\(stories)/x".utf8) + [0xFE]).map { CChar(bitPattern: $0) } + [0], 0o755) == 0)
        // A folder named like a clip, not UTF-8: a folder inside the story, not skipped (a review).
        let folderLikeAClip = Array("\(stories)/u/old".utf8) + [0xE9] + Array(".mp4".utf8)
        try #require(mkdir(folderLikeAClip.map { CChar(bitPattern: $0) } + [0], 0o755) == 0)
        let input = try StoryInput.load(stories)
        #expect(input.stories.map(\.clips) == [["u/\u{FFFD}.mp4"]])
        let reasons = input.skipped.map { "\($0.path): \($0.reason)" }.sorted()
        // Named as `ls -b` names them (they were both `u/\u{FFFD}.mp4`, the name of the clip that
        // plays, a QA pass).
        #expect(
            reasons == [
                #"u/\xFE.mp4: "# + StoryInput.notUTF8, #"u/\xFF.mp4: "# + StoryInput.notUTF8,
                #"x\xFE: not a story folder: "# + StoryInput.notUTF8,
            ])
    }

    /// The bundle folder inside the stories input is compared byte by byte: an OUT whose name
    /// differs from INPUT's only in normalization is another folder (it was refused with 64).
    @Test func insideIsDecidedByBytes() {
        #expect(!BundlePaths.isInside("/tmp/caf\u{E9}", "/tmp/cafe\u{301}"))
        #expect(!BundlePaths.isInside("/tmp/caf\u{E9}/reel", "/tmp/cafe\u{301}"))
        #expect(BundlePaths.isInside("/tmp/caf\u{E9}/reel", "/tmp/caf\u{E9}"))
        #expect(!BundlePaths.isInside("/tmp/caf\u{E9}x", "/tmp/caf\u{E9}"))
    }

    @Test func sampleStoriesLoadInPlayOrder() throws {
        let input = try StoryInput.load(TestEnvironment.sample("stories"))
        #expect(input.stories.map(\.handle) == ["ana.lima", "ben_k", "chloe", "dev-ops"])
        let ben = try #require(input.stories.first { $0.handle == "ben_k" })
        #expect(ben.clips == ["ben_k/1.mp4", "ben_k/2.mp4", "ben_k/10.mp4"])
        #expect(ben.avatar == "ben_k/avatar.jpg")
        let ana = try #require(input.stories.first)
        #expect(ana.displayName == "Ana Lima")
        #expect(input.stories.last?.isRead == true, "dev-ops is read, so it plays last")
        #expect(input.stories.flatMap(\.clips).count == 9)
    }

    @Test func orderReadFlagsAndBadFoldersApply() throws {
        let folder = try TemporaryFolder()
        let manager = FileManager.default
        for name in ["zed", "amy", "bob", "carl", "bad name", ".git"] {
            try manager.createDirectory(atPath: folder.path(name), withIntermediateDirectories: true)
        }
        try folder.write("zed/story.json", Data(#"{"order": 1}"#.utf8))
        try folder.write("amy/story.json", Data(#"{"isRead": true, "order": 0}"#.utf8))
        try folder.write("carl/story.json", Data("not json".utf8))
        for name in ["zed/clip.MOV", "zed/.partial.mov", "zed/notes.txt", "bob/b.m4v", "amy/a.mp4", "carl/c.mp4"] {
            try folder.write(name, Data())
        }
        let input = try StoryInput.load(folder.url.path)
        #expect(input.stories.map(\.handle) == ["zed", "bob", "carl", "amy"])
        #expect(input.stories[0].clips == ["zed/clip.MOV"])
        #expect(input.stories[1].clips == ["bob/b.m4v"])
        #expect(input.skipped.map(\.path).sorted() == ["bad name", "carl/story.json"])
    }

    @Test func specKeepsArrayOrderButReadStoriesGoLast() throws {
        let folder = try TemporaryFolder()
        let spec = """
            {"stories": [
              {"handle": "x", "isRead": true, "items": ["a.mov"]},
              {"handle": "y", "displayName": "Why", "avatar": "y.png", "items": ["b.mov", "c.mov"]},
              {"handle": "bad/handle", "items": []}
            ]}
            """
        let path = try folder.write("spec.json", Data(spec.utf8))
        let input = try StoryInput.load(path)
        #expect(input.stories.map(\.handle) == ["y", "x"])
        #expect(input.stories[0].displayName == "Why")
        #expect(input.stories[0].clips == ["b.mov", "c.mov"])
        #expect(input.stories[0].avatar == "y.png")
        #expect(input.skipped.count == 1)
        #expect(input.skipped.first?.story == nil, "an invalid handle is no story's")
        #expect(input.root == folder.url.path)
    }

    /// From a QA pass: a spec item with an absolute path was read relative to the spec's folder
    /// (another file played), a NUL cut the path the system opened short of the one the
    /// manifest named, and an item of any extension was copied into `clips/`; an empty spec
    /// rendered an empty reel. Each is refused with its reason.
    @Test func specPathsThatCannotBeClipsAreSkippedAndAnEmptySpecIsRefused() throws {
        let folder = try TemporaryFolder()
        let spec = """
            {"stories": [
              {"handle": "y", "avatar": "/etc/y.png", "items": [
                "b.mov", "/tmp/c.mov", "d.mov\\u0000.jpg", "notes.txt", "noextension", "e.MP4"]},
              {"handle": "z", "avatar": "z.gif", "items": ["f.m4v"]}
            ]}
            """
        let input = try StoryInput.load(try folder.write("spec.json", Data(spec.utf8)))
        #expect(input.stories.map(\.clips) == [["b.mov", "e.MP4"], ["f.m4v"]])
        #expect(input.stories.map(\.avatar) == [nil, nil])
        let reasons = input.skipped.map { "\($0.path): \($0.reason)" }
        #expect(
            reasons == [
                "stories[0].items[1]: an absolute path: a spec's paths are relative to its folder",
                "d.mov\u{0}.jpg: its path holds a control character",
                "notes.txt: not a clip: storyreel plays .mov, .mp4 and .m4v files",
                "noextension: not a clip: storyreel plays .mov, .mp4 and .m4v files",
                "stories[0].avatar: avatar: an absolute path: a spec's paths are relative to its folder",
                "z.gif: avatar: not a still: an avatar is a .jpg, .jpeg or .png file",
            ], "\(reasons)")
        let empty = try folder.write("empty.json", Data(#"{"stories": []}"#.utf8))
        #expect(throws: (any Error).self) { try StoryInput.load(empty) }
        do {
            _ = try StoryInput.load(empty)
        } catch {
            #expect("\(error)".hasSuffix("not a stories spec: its \"stories\" array is empty"), "\(error)")
        }
    }
}
