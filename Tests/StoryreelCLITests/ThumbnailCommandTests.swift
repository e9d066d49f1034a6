import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// `storyreel thumbnail` writes posters named and formatted as asked, at the asked size and time.
@Suite struct ThumbnailCommandTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static func sample(_ name: String) -> String { TestEnvironment.sample(name) }

    func thumbnail(_ arguments: [String]) throws -> ProcessResult {
        try TestEnvironment.storyreel(["thumbnail"] + arguments)
    }

    /// Codec name and size of an image file, from ffprobe.
    func probe(_ path: String) throws -> (codec: String, width: Int, height: Int) {
        let streams = try #require(try TestEnvironment.ffprobe(path)["streams"] as? [[String: Any]])
        let stream = try #require(streams.first)
        return (stream["codec_name"] as? String ?? "", stream["width"] as? Int ?? 0, stream["height"] as? Int ?? 0)
    }

    /// From a QA pass: a clip of one group of pictures, black for 15 s, failed the whole clip at
    /// `--timeout 1` (65) while the smart pick decoded on, its first frame decoded in 0.3 s. The
    /// pick now stops at the deadline with the best frame it has, as ffmpegthumbnailer gives
    /// one, and says so; `--at` and a bundle's posters still fail at it.
    @Test func theSmartPickStopsAtTheDeadlineWithTheBestFrameItHas() throws {
        let clip = folder.path("one-gop.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i",
            "color=black:s=1920x1080:r=30:d=15[k];testsrc2=s=1920x1080:r=30:d=5[c];[k][c]concat=n=2:v=1:a=0",
            "-c:v", "libx264", "-preset", "ultrafast", "-x264-params", "keyint=100000:scenecut=0", clip,
        ])
        let out = folder.path("p.jpg")
        let result = try thumbnail([clip, "-o", out, "--timeout", "0.3"])
        #expect(result.status == 0, "\(result.stderr)")
        let note =
            #/^storyreel: note: .*one-gop\.mp4: the smart pick stopped at --timeout after looking at \d+ frames?; the poster is the best of them \(\d+\.\d{3} s\); raise --timeout, or choose one with --at\n$/#
        #expect(result.stderr.contains(note), "\(result.stderr)")
        #expect(try probe(out).width == 1920)
        // Given time, the pick finds the content, in silence.
        let whole = try thumbnail([clip, "-o", folder.path("q.jpg"), "--force"])
        #expect(whole.status == 0 && whole.stderr.isEmpty, "\(whole.stderr)")
    }

    @Test func writesAJPEGPosterAtTheDisplaySize() throws {
        let out = folder.path("poster.jpg")
        let result = try thumbnail([Self.sample("iphone-hevc-hdr.mov"), "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == out + "\n")
        let image = try probe(out)
        #expect(image.codec == "mjpeg" && image.width == 720 && image.height == 1280)
    }

    /// From a QA pass: an all-black or flat clip's poster was written in silence. A note says
    /// so, and --at is how to choose; a clip with a black intro gets no note.
    @Test func aClipWithOnlyBlankFramesGetsANote() throws {
        let black = folder.path("black.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "color=c=black:s=180x320:r=30:d=2", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", black,
        ])
        let out = folder.path("black.jpg")
        let result = try thumbnail([black, "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "storyreel: note: \(black): every frame looked at is near-black, near-white or flat; the poster is "
                + "the one with the most contrast (0.000 s); choose one with --at\n")
        #expect(try probe(out).width == 180)
        let intro = try thumbnail([Self.sample("black-intro.mp4"), "-o", folder.path("intro.jpg")])
        #expect(intro.status == 0 && intro.stderr.isEmpty, "\(intro.stderr)")
        let chosen = try thumbnail([black, "-o", folder.path("at.jpg"), "--at", "1"])
        #expect(chosen.status == 0 && chosen.stderr.isEmpty, "\(chosen.stderr)")
        // From the phone-uploads QA pass: a light-mode screen recording (a white page with a
        // coloured bar and lines: mean luma 241) got the note too, for a very common upload. A
        // white picture with that much on it is not "near-white".
        let page = folder.path("light-mode.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i",
            "color=c=white:s=590x1280:r=30:d=2,drawbox=x=40:y=300:w=500:h=80:c=blue:t=fill,"
                + "drawbox=x=40:y=100:w=300:h=30:c=gray:t=fill,drawbox=x=40:y=500:w=420:h=20:c=gray:t=fill",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "1000", "-pix_fmt", "yuv420p", page,
        ])
        let screen = try thumbnail([page, "-o", folder.path("page.jpg")])
        #expect(screen.status == 0 && screen.stderr.isEmpty, "\(screen.stderr)")
    }

    @Test(arguments: [("poster.png", "png"), ("poster.webp", "webp"), ("poster.JPEG", "mjpeg"), ("poster", "mjpeg")])
    func formatFollowsTheOutputExtension(name: String, codec: String) throws {
        let out = folder.path(name)
        let result = try thumbnail([Self.sample("portrait-h264.mp4"), "-o", out, "--width", "90"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try probe(out).codec == codec)
    }

    @Test func formatOptionOverridesTheExtension() throws {
        let out = folder.path("poster.jpg")
        let result = try thumbnail([Self.sample("portrait-h264.mp4"), "-o", out, "--format", "png", "--width", "90"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try probe(out).codec == "png")
        // Said, as a PNG under a .jpg name is more often a slip (a QA note); a format the name agrees with is not.
        #expect(
            result.stderr
                == "storyreel: warning: -o '\(out)': its name says JPEG; writing PNG as --format asks\n")
        let agreeing = folder.path("poster.JPG")
        let quiet = try thumbnail([
            Self.sample("portrait-h264.mp4"), "-o", agreeing, "--format", "jpeg", "--width", "90",
        ])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(try probe(agreeing).codec == "mjpeg")
    }

    /// `--format` is read in any case, as `-o`'s extension is: `-o a.JPG` was taken and
    /// `--format JPEG` refused (a thumbnail QA pass).
    @Test func formatOptionIsReadInAnyCase() throws {
        let out = folder.path("poster.jpg")
        let result = try thumbnail([Self.sample("portrait-h264.mp4"), "-o", out, "--format", "PNG", "--width", "90"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try probe(out).codec == "png")
    }

    @Test func widthHeightAndBothGiveTheRightSizes() throws {
        let clip = Self.sample("portrait-h264.mp4")
        for (options, width, height) in [
            (["--width", "361"], 361, 642), (["--height", "100"], 56, 100),
            (["--width", "200", "--height", "200"], 200, 200),
        ] {
            let out = folder.path("sized-\(width)x\(height).png")
            let result = try thumbnail([clip, "-o", out] + options)
            #expect(result.status == 0, "\(result.stderr)")
            let image = try probe(out)
            #expect(image.width == width && image.height == height, "\(options)")
        }
    }

    /// A shared position counts to the end of the last frame. A variable-frame-rate clip with
    /// B-frames has a container duration (its decode-time steps) that ends before its last frame
    /// shows: `--at 100%` gave the frame before the last, and `--at 50%` a frame early (a QA pass).
    /// Its frames: 0 … 0.967 s every 1/30 s, then every 0.1 s up to 2.9 s, which ends at 2.933 s.
    @Test func sharesCountToTheEndOfTheLastFrameOfAVariableRateClipWithBFrames() throws {
        let clip = folder.path("vfr-b.mov")
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=180x320:rate=30:duration=3", "-vf",
                "select='not(mod(n\\,3))+lt(n\\,30)'", "-vsync", "vfr", "-c:v", "libx264", "-bf", "3", clip,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        for (share, seconds) in [("100%", "2.9"), ("50%", "1.5")] {
            let out = folder.path("at-\(share).png")
            let result = try thumbnail([clip, "-o", out, "--at", share])
            #expect(result.status == 0, "\(result.stderr)")
            let ours = try PixelComparison.ffmpegImage(out, width: 180, height: 320)
            let wanted = try PixelComparison.ffmpegImage(
                clip, width: 180, height: 320,
                options: ["-ss", seconds, "-frames:v", "1"] + PixelComparison.mediaLayerScaling)
            let other = try PixelComparison.ffmpegImage(
                clip, width: 180, height: 320,
                options: ["-ss", share == "100%" ? "2.8" : "1.4", "-frames:v", "1"] + PixelComparison.mediaLayerScaling)
            let score = PixelComparison.psnr(ours, wanted)
            let neighbour = PixelComparison.psnr(ours, other)
            #expect(score >= 30 && score > neighbour + 3, "--at \(share): \(score) dB, the neighbour \(neighbour) dB")
        }
    }

    /// A fill is cropped before it is scaled: the old scale-then-crop needed a 6000x10667
    /// picture for a 6000x100 fill of a 720x1280 clip, and refused it (65) as over the budget.
    @Test func aFillWhoseWholeScaleWouldBeOverTheBudgetIsDrawn() throws {
        let clip = Self.sample("portrait-h264.mp4")
        for (width, height) in [(6000, 100), (2, 8192)] {
            let out = folder.path("fill-\(width)x\(height).png")
            let result = try thumbnail([clip, "--at", "0.5", "-o", out, "--width", "\(width)", "--height", "\(height)"])
            #expect(result.status == 0, "\(result.stderr)")
            let image = try probe(out)
            #expect(image.width == width && image.height == height)
        }
        let reference = try PixelComparison.ffmpegImage(
            clip, width: 6000, height: 100, input: ["-ss", "0.5"],
            options: [
                "-frames:v", "1", "-vf",
                "scale=6000:100:force_original_aspect_ratio=increase,crop=6000:100",
            ] + PixelComparison.mediaLayerScaling)
        let ours = try PixelComparison.ffmpegImage(folder.path("fill-6000x100.png"), width: 6000, height: 100)
        #expect(PixelComparison.psnr(ours, reference) >= 38)
    }

    @Test func outDirNamesPostersAfterClipsAndNumbersCollisions() throws {
        let copies = try TemporaryFolder()
        let clip = Self.sample("sixty-fps.mp4")
        let sameName = copies.path("sixty-fps.mov")
        try FileManager.default.copyItem(atPath: clip, toPath: sameName)
        let numbered = copies.path("sixty-fps-2.mp4")
        try FileManager.default.copyItem(atPath: clip, toPath: numbered)
        let out = folder.path("posters/nested")
        let result = try thumbnail([clip, sameName, numbered, clip, "--out-dir", out, "--width", "90", "-j", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = ["sixty-fps.jpg", "sixty-fps-2.jpg", "sixty-fps-2-2.jpg", "sixty-fps-3.jpg"]
        #expect(result.stdout == expected.map { out + "/" + $0 + "\n" }.joined())
        let written = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(written == ([".storyreel-posters"] + expected).sorted())
    }

    /// From a QA pass: two clips whose names differ only in Unicode form (`é` as one code point
    /// and as `e` plus an accent) are two files, which the record of posters took for one, so the
    /// third run refused storyreel's own poster as changed (73); and a clip name of 251 bytes
    /// made a poster name too long for the file system, which failed only after the work.
    @Test func outDirKeepsPostersWhoseNamesDifferInUnicodeFormApartAndCutsLongNames() throws {
        let copies = try TemporaryFolder()
        let composed = copies.path("caf\u{E9}.mp4")
        let decomposed = copies.path("cafe\u{301}.mp4")
        try FileManager.default.copyItem(atPath: Self.sample("portrait-h264.mp4"), toPath: composed)
        try FileManager.default.copyItem(atPath: Self.sample("sixty-fps.mp4"), toPath: decomposed)
        let out = folder.path("posters")
        for clip in [composed, decomposed, composed, decomposed] {
            let result = try thumbnail([clip, "--out-dir", out, "--width", "64"])
            #expect(result.status == 0, "\(clip): \(result.stderr)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }
        #expect(Set(names.map { Array($0.utf8) }) == [Array("caf\u{E9}.jpg".utf8), Array("cafe\u{301}-2.jpg".utf8)])

        let long = String(repeating: "a", count: 251)
        let clips = try ["mp4", "mov"].map { ext in
            let path = copies.path("\(long).\(ext)")
            try FileManager.default.copyItem(atPath: Self.sample("portrait-h264.mp4"), toPath: path)
            return path
        }
        let result = try thumbnail(clips + ["--out-dir", folder.path("long"), "--format", "webp", "--width", "64"])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path("long")).filter {
            !$0.hasPrefix(".")
        }
        // Cut, each marked with its whole name's hash: another long name cut to the same stem,
        // in a later call, gets a poster of its own (a re-check: it replaced this one).
        let mark = "~" + String(try ContentHasher.sha256(of: long).prefix(8))
        #expect(
            Set(written) == [
                String(repeating: "a", count: 241) + mark + ".webp",
                String(repeating: "a", count: 239) + mark + "-2.webp",
            ], "\(written)")
        let other = copies.path(String(repeating: "a", count: 250) + "b.mp4")
        try FileManager.default.copyItem(atPath: Self.sample("sixty-fps.mp4"), toPath: other)
        let again = try thumbnail([other, "--out-dir", folder.path("long"), "--format", "webp", "--width", "64"])
        #expect(again.status == 0, "\(again.stderr)")
        let now = try FileManager.default.contentsOfDirectory(atPath: folder.path("long")).filter { !$0.hasPrefix(".") }
        #expect(now.count == 3, "\(now)")
    }

    /// `--out-dir` replaces only posters a run recorded writing (`.storyreel-posters`): a file of
    /// the same name that someone else put there is refused (73) before any work and left as it
    /// was, while the other clips are written; once it is moved away, the poster is written, and
    /// a later run replaces it. (The old code replaced the stranger's file.)
    @Test func outDirReplacesOnlyPostersItWrote() throws {
        let first = Self.sample("portrait-h264.mp4")
        let second = Self.sample("sixty-fps.mp4")
        let out = folder.path("posters")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let theirs = out + "/portrait-h264.jpg"
        try Data("their own poster".utf8).write(to: URL(fileURLWithPath: theirs))
        let refused = try thumbnail([first, second, "--out-dir", out, "--width", "90"])
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(
            refused.stderr
                == "storyreel: error: \(theirs): exists and storyreel did not write it; move it away or give another --out-dir\n"
        )
        #expect(refused.stdout == out + "/sixty-fps.jpg\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: theirs)) == Data("their own poster".utf8))
        try FileManager.default.removeItem(atPath: theirs)
        for run in 1...2 {
            let result = try thumbnail([first, second, "--out-dir", out, "--width", "90"])
            #expect(result.status == 0, "run \(run): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: theirs)).starts(with: [0xFF, 0xD8]), "a JPEG")
        }
        let record = try Data(contentsOf: URL(fileURLWithPath: out + "/.storyreel-posters"))
        let object = try #require(try JSONSerialization.jsonObject(with: record) as? [String: Any])
        #expect((object["posters"] as? [String: Any])?.keys.sorted() == ["portrait-h264.jpg", "sixty-fps.jpg"])
        #expect((object["pending"] as? [String: Any])?.isEmpty == true)
    }

    /// A run killed part-way (SIGKILL, as a CI job's timeout sends) leaves the posters it wrote
    /// recorded, so the next run replaces them. (The old code recorded them only at the end: the
    /// next run refused each one with 73, `--force` or not, until they were deleted by hand.)
    @Test func outDirRunKilledPartWayLeavesPostersTheNextRunReplaces() throws {
        let clip = Self.sample("portrait-h264.mp4")
        let out = folder.path("killed")
        let arguments =
            ["thumbnail"] + Array(repeating: clip, count: 12) + ["--out-dir", out, "-j", "1", "--width", "90"]
        let jpegs = {
            ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasSuffix(".jpg") }
        }
        _ = try TestEnvironment.interrupt(arguments, with: SIGKILL) { !jpegs().isEmpty }
        let left = jpegs()
        #expect(!left.isEmpty && left.count < 12, "killed part-way: \(left)")
        let rerun = try TestEnvironment.storyreel(arguments)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(jpegs().count == 12)
        let temporary = try FileManager.default.contentsOfDirectory(atPath: out).filter {
            $0.hasSuffix(".storyreel-tmp")
        }
        #expect(temporary.isEmpty, "the killed run's temporary files are swept: \(temporary)")
    }

    /// A poster is replaced only while it is what storyreel wrote: one a user changed since is
    /// refused (73) and left as it is, as a file no run wrote is. (The record kept only names:
    /// the user's file was overwritten.) A record storyreel cannot read is refused, not replaced
    /// by one that forgets every poster it names.
    @Test func outDirRefusesAPosterChangedSinceAndARecordItCannotRead() throws {
        let clip = Self.sample("portrait-h264.mp4")
        let out = folder.path("changed")
        let arguments = [clip, "--out-dir", out, "--width", "90"]
        #expect(try thumbnail(arguments).status == 0)
        let poster = out + "/portrait-h264.jpg"
        let users = Data("the user's own picture now".utf8)
        try users.write(to: URL(fileURLWithPath: poster))
        let changed = try thumbnail(arguments)
        #expect(changed.status == 73, "\(changed.stderr)")
        #expect(changed.stderr.contains("portrait-h264.jpg: has changed since storyreel wrote it"), "\(changed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: poster)) == users)

        let record = out + "/.storyreel-posters"
        // A record cut short, and a poster recorded without its contents (which made the user's
        // file replaceable by name, a re-check found).
        // And 513 `[` with nothing after, which stopped the process inside Foundation's parser
        // (SIGILL, a QA pass), as the same line in the journal did.
        let tooDeep = String(repeating: "[", count: 513)
        for text in [
            #"{"posters": {"portrait-h264.jpg": {"size": 8"#,
            #"{"posters": {"portrait-h264.jpg": null}, "pending": {}}"#, tooDeep,
        ] {
            let edited = Data(text.utf8)
            try edited.write(to: URL(fileURLWithPath: record))
            let unreadable = try thumbnail([clip, "--out-dir", out, "--width", "90"])
            #expect(unreadable.status == 73, "\(text): \(unreadable.stderr)")
            #expect(unreadable.stderr.contains("not a record of posters storyreel can read"), "\(unreadable.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: record)) == edited)
            #expect(try Data(contentsOf: URL(fileURLWithPath: poster)) == users)
        }
        let journaled = folder.path("journaled")
        try FileManager.default.createDirectory(atPath: journaled, withIntermediateDirectories: false)
        try Data(tooDeep.utf8).write(to: URL(fileURLWithPath: journaled + "/.storyreel-posters-journal"))
        let journal = try thumbnail([clip, "--out-dir", journaled, "--width", "90"])
        #expect(journal.status == 73, "\(journal.stderr)")
        #expect(journal.stderr.contains("is not a journal storyreel wrote; move it away"), "\(journal.stderr)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: journaled + "/.storyreel-posters-journal")) == Data(tooDeep.utf8))
    }

    /// From a QA pass: a file at the journal's name that storyreel did not write (a person's
    /// notes; the very clip given as the input) was appended to and removed at the end of the
    /// run, with exit 0, and removed by a run whose clip failed too. It is refused (73) and left
    /// as it is; a journal a kill cut short in its last line is still read.
    @Test func outDirRefusesAFileAtTheJournalsNameThatIsNoJournal() throws {
        let clip = Self.sample("portrait-h264.mp4")
        for (index, contents) in [
            // A file that only begins as a journal line does: it was taken for one a kill cut
            // short, and removed (a re-check).
            Data(#"{"name":"Bob","note":"keep me"}"#.utf8),
            Data("my notes\n".utf8), Data("my notes".utf8), try Data(contentsOf: URL(fileURLWithPath: clip)),
        ]
        .enumerated() {
            let out = folder.path("journal-\(index)")
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            let journal = out + "/.storyreel-posters-journal"
            try contents.write(to: URL(fileURLWithPath: journal))
            // The last: the clip itself given as the input, under the journal's name.
            let input = index == 3 ? journal : clip
            let result = try thumbnail([input, "--out-dir", out, "--width", "90"])
            #expect(result.status == 73, "\(result.stderr)")
            #expect(
                result.stderr == "storyreel: error: \(journal): is not a journal storyreel wrote; move it away\n",
                "\(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == contents, "left as it was")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [".storyreel-posters-journal"])
        }
        // A killed run's journal whose last line was cut short: its whole lines are read, and it goes.
        let out = folder.path("journal-cut")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let sha = String(repeating: "ab", count: 32)
        let journalText = #"{"name":"old\/x.jpg","sha256":"\#(sha)","size":12}"# + "\n" + #"{"name":"portrait-h2"#
        try Data(journalText.utf8).write(to: URL(fileURLWithPath: out + "/.storyreel-posters-journal"))
        let result = try thumbnail([clip, "--out-dir", out, "--width", "90"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/.storyreel-posters-journal"))
        #expect(FileManager.default.fileExists(atPath: out + "/portrait-h264.jpg"))
    }

    /// A poster recorded as pending (a run killed between the rename and the record) is the
    /// run's own only while it holds what was pending: then the next run replaces it; a file
    /// of that name holding something else is someone's, refused with 73 and left as it is. A
    /// record in the older form (an array of names) is still read.
    @Test func outDirPendingPosterIsItsOwnOnlyWhileItHoldsWhatWasPending() throws {
        let clip = Self.sample("portrait-h264.mp4")
        let out = folder.path("pending")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let poster = out + "/portrait-h264.jpg"
        let bytes = Data("a poster being written".utf8)
        try bytes.write(to: URL(fileURLWithPath: poster))
        let sha256 = try ContentHasher.sha256(ofFileAt: poster)
        func record(_ pendingSHA256: String) throws {
            let record =
                #"{"posters": {}, "pending": {"portrait-h264.jpg": {"size": \#(bytes.count), "sha256": "\#(pendingSHA256)"}}}"#
            try Data(record.utf8).write(to: URL(fileURLWithPath: out + "/.storyreel-posters"))
        }
        try record(String(repeating: "0", count: 64))
        let refused = try thumbnail([clip, "--out-dir", out, "--width", "90"])
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: poster)) == bytes)
        try record(sha256)
        let adopted = try thumbnail([clip, "--out-dir", out, "--width", "90"])
        #expect(adopted.status == 0, "\(adopted.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: poster)).starts(with: [0xFF, 0xD8]), "a JPEG")
        try Data(#"["portrait-h264.jpg"]"#.utf8).write(to: URL(fileURLWithPath: out + "/.storyreel-posters"))
        let older = try thumbnail([clip, "--out-dir", out, "--width", "90"])
        #expect(older.status == 0, "\(older.stderr)")
    }

    /// Two runs into one `--out-dir` take turns (a `flock` on the folder), so neither loses the
    /// other's record: while another process holds the folder, a run says once who holds it
    /// (it waited in silence, a QA pass found), waits up to `--timeout`, then gives up with 75
    /// and writes nothing.
    @Test func outDirIsLockedWhileARunWrites() throws {
        let out = folder.path("locked")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let holder = open(out, O_RDONLY | O_DIRECTORY)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let result = try thumbnail([Self.sample("portrait-h264.mp4"), "--out-dir", out, "--timeout", "0.3"])
        #expect(result.status == 75, "\(result.stderr)")
        #expect(
            result.stderr
                == "storyreel: waiting for the lock on \(out) (held by pid \(getpid()))…\n"
                + "storyreel: error: \(out): another storyreel run holds the lock; gave up after 0.3 s (--timeout)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }

    /// From a QA pass: a missing output folder was "no such folder: nodir" for `cube -o` and
    /// "cannot create a file in nodir: No such file or directory" for the others.
    @Test func aMissingOutputFolderIsSaidAlikeByEveryWriter() throws {
        let clip = Self.sample("portrait-h264.mp4")
        for (arguments, file) in [
            (["thumbnail", clip, "-o", "nodir/p.jpg"], "nodir/p.jpg"),
            (["cube", clip, clip, "--size", "64x64", "--filmstrip", "nodir/s.png"], "nodir/s.png"),
            (["cube", clip, clip, "--size", "64x64", "-o", "nodir/x.mp4"], "nodir/x.mp4"),
        ] {
            let result = try TestEnvironment.storyreel(arguments, in: folder.url)
            #expect(result.status == 73, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "storyreel: error: \(file): no such folder: nodir\n", "\(arguments)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// From an error audit: an output under a file read `… cannot create a file in /tmp/…/file:
    /// Not a directory`: an absolute path beside the relative one given, and the system's
    /// "directory" where every other line says "folder".
    @Test func anOutputUnderAFileIsRefusedInTheWordsAndPathsGiven() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path("file")))
        let clip = Self.sample("portrait-h264.mp4")
        // A re-check found the other writers' lines absolute, and `cube -o file/a/x.mp4` saying
        // "no such folder".
        let cases: [([String], String)] = [
            (
                ["thumbnail", clip, "-o", "file/poster.jpg"],
                "file/poster.jpg: cannot create a file in 'file': a part of the path is not a folder"
            ),
            (
                ["thumbnail", clip, "--out-dir", "file/sub"],
                "file/sub: cannot create the folder 'file/sub': a part of the path is not a folder"
            ),
            (
                ["cube", clip, clip, "--size", "64x64", "-o", "file/a/x.mp4"],
                "file/a/x.mp4: file is a file, not a folder"
            ),
            (["cube", clip, clip, "--size", "64x64", "-o", "file/x.mp4"], "file/x.mp4: not a folder: file"),
            (
                ["render", TestEnvironment.sample("stories"), "-o", "file/a/b"],
                "file/a/b: file is a file, not a folder"
            ),
        ]
        for (arguments, line) in cases {
            let result = try TestEnvironment.storyreel(arguments, in: folder.url)
            #expect(result.status == 73, "\(arguments)")
            #expect(result.stderr == "storyreel: error: \(line)\n")
        }
    }

    @Test func atSecondsAndPercentPickThoseFrames() throws {
        let clip = Self.sample("portrait-h264.mp4")
        let atTime = folder.path("at.png")
        #expect(try thumbnail([clip, "-o", atTime, "--at", "1.5", "--width", "180"]).status == 0)
        let atPercent = folder.path("half.png")
        #expect(try thumbnail([clip, "-o", atPercent, "--at", "50%", "--width", "180"]).status == 0)
        let reference = try FFmpegReference.frame(clip, at: 1.5, width: 180, height: 320)
        for path in [atTime, atPercent] {
            let pixels = try PixelComparison.ffmpegImage(path, width: 180, height: 320)
            #expect(PixelComparison.psnr(pixels, reference) >= 30, "\(path)")
        }
    }

    /// From a QA pass: `--at 00:00:01` and `--at 1:30` were refused, though `ffmpeg -ss` and
    /// `ffmpegthumbnailer -t` take `[HH:]MM:SS[.fraction]`. Each gives the poster of the same time
    /// in seconds; a field after another is below 60, and no form takes a sign.
    @Test func atTakesClockTimesAsFFmpegDoes() throws {
        let clip = Self.sample("portrait-h264.mp4")
        func poster(_ time: String) throws -> (result: ProcessResult, bytes: Data?) {
            let out = folder.path("at-\(time.replacingOccurrences(of: ":", with: "_")).png")
            let result = try thumbnail([clip, "-o", out, "--at", time, "--width", "90"])
            return (result, FileManager.default.contents(atPath: out))
        }
        for (seconds, clockTimes) in [
            // `0:01.`: a point with no digits after it, as ffmpeg takes it (a re-check).
            ("1", ["00:00:01", "0:01", "00:01.000", "0:0:1", "0:01."]), ("1.5", ["00:00:01.5", "0:01.50"]),
            ("0", ["00:00", "0:00:00.0"]),
        ] {
            let expected = try poster(seconds)
            #expect(expected.result.status == 0, "\(expected.result.stderr)")
            for time in clockTimes {
                let given = try poster(time)
                #expect(given.result.status == 0, "--at \(time): \(given.result.stderr)")
                #expect(given.result.stderr.isEmpty, "--at \(time): \(given.result.stderr)")
                #expect(given.bytes != nil && given.bytes == expected.bytes, "--at \(time) is not --at \(seconds)")
            }
        }
        // After the clip's end, as 90 seconds is: its last frame, with the note naming 90 s.
        let late = try poster("1:30")
        #expect(late.result.status == 0, "\(late.result.stderr)")
        #expect(late.result.stderr.hasPrefix("storyreel: note: \(clip): 90.000 s is after the last frame"))
        // The upper bound is the seconds' own: 277:46:40 is 1000000 s.
        #expect(try poster("277:46:40").result.status == 0)
        for refused in [
            "277:46:41", "1:60", "1:60:00", "0:01:60", "-0:01", "+0:01", "1:", ":30", "1::30", "1:2:3:4", "1.5:30",
            "1:30.5.5", "1:30..", "1:005", "1:30e1", "0x1:00", "1:30%", " 1:30",
        ] {
            let result = try poster(refused)
            #expect(result.result.status == 64, "--at \(refused): \(result.result.stderr)")
            #expect(
                result.result.stderr.hasPrefix("storyreel: error: --at must be seconds from 0 to 1000000, as 1.5 or "),
                "--at \(refused): \(result.result.stderr)")
        }
    }

    @Test func timePastTheEndUsesTheLastFrameWithANote() throws {
        let clip = Self.sample("portrait-h264.mp4")
        let out = folder.path("late.png")
        let result = try thumbnail([clip, "-o", out, "--at", "99", "--width", "180"])
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("storyreel: note: \(clip): 99.000 s is after the last frame"))
        let pixels = try PixelComparison.ffmpegImage(out, width: 180, height: 320)
        let last = try FFmpegReference.lastFrame(clip, width: 180, height: 320)
        #expect(PixelComparison.psnr(pixels, last) >= 30)
        // The last frame shows from 2.967 s to the clip's end at 3 s: a time in between is no
        // clamp (the old code said 2.999 s was after the last frame); the end is.
        let inside = try thumbnail([clip, "-o", folder.path("inside.png"), "--at", "2.999", "--width", "180"])
        #expect(inside.status == 0 && inside.stderr.isEmpty, "\(inside.stderr)")
        let end = try thumbnail([clip, "-o", folder.path("end.png"), "--at", "3", "--width", "180"])
        #expect(end.stderr.hasPrefix("storyreel: note: \(clip): 3.000 s is after the last frame"), "\(end.stderr)")
    }

    @Test func smartPickSkipsTheBlackIntro() throws {
        let out = folder.path("poster.png")
        #expect(try thumbnail([Self.sample("black-intro.mp4"), "-o", out, "--width", "180"]).status == 0)
        let pixels = try PixelComparison.ffmpegImage(out, width: 180, height: 320)
        #expect(FFmpegReference.meanLuma(pixels) > 40)
    }

    @Test func helpShowsUsageOptionsAndExamples() throws {
        let help = try thumbnail(["--help"])
        #expect(help.status == 0)
        for section in ["USAGE: storyreel thumbnail", "OPTIONS:", "--out-dir DIR", "--at TIME|N%", "EXAMPLES:"] {
            #expect(help.stdout.contains(section))
        }
    }
}
