import StoryreelKit

/// Hand-built manifests for the navigator's edge cases: stories `s0`, `s1` … with the given
/// item counts, items `sI-J` with ids unique per item, and the transitions asked for.
enum ManifestSamples {
    /// Which transitions the bundle has between adjacent stories.
    enum Transitions {
        case none, forward, both
    }

    static func manifest(items counts: [Int], transitions: Transitions = .forward, read: Set<Int> = [])
        -> Manifest
    {
        let stories = counts.enumerated().map { storyIndex, count in
            Manifest.Story(
                id: "s\(storyIndex)",
                user: Manifest.User(handle: "s\(storyIndex)", displayName: "S \(storyIndex)", avatar: nil),
                isRead: read.contains(storyIndex), duration: Double(count) * 2,
                items: (0..<count).map { item(story: storyIndex, index: $0) })
        }
        var joins: [Manifest.Transition] = []
        for index in stories.indices.dropLast() where transitions != .none {
            joins.append(transition(from: index, to: index + 1, .forward))
            if transitions == .both { joins.append(transition(from: index + 1, to: index, .backward)) }
        }
        return Manifest(
            generator: "storyreel test", canvas: Manifest.Size(width: 360, height: 640),
            duration: stories.map(\.duration).reduce(0, +), stories: stories, transitions: joins, skipped: [])
    }

    static func item(story: Int, index: Int) -> Manifest.Item {
        let hex = String(story * 100 + index, radix: 16)
        let id = String(repeating: "0", count: 16 - hex.count) + hex
        return Manifest.Item(
            id: id, src: "clips/s\(story)-\(index).mp4", sha256: id + String(repeating: "0", count: 48), duration: 2,
            width: 360, height: 640, rotation: 0, frameRate: 30, codec: "h264", codecs: "avc1.64001f", hdr: "none",
            hasAudio: false, poster: "posters/s\(story)-\(index).jpg", thumbnail: "thumbs/s\(story)-\(index).jpg",
            firstFrame: "stills/s\(story)-\(index)-first.jpg", lastFrame: "stills/s\(story)-\(index)-last.jpg")
    }

    static func transition(from: Int, to: Int, _ direction: Manifest.Transition.Direction) -> Manifest.Transition {
        Manifest.Transition(
            from: "s\(from)", to: "s\(to)", direction: direction, src: "transitions/\(direction)-\(from)-\(to).mp4",
            frames: 15, fps: 30, duration: 0.5, width: 360, height: 640, codecs: "avc1.64001e")
    }

    /// `S#i` for a step's landing, `T:` before it for a transition, `end` at the end.
    static func describe(_ step: PlaybackStep) -> String {
        switch step {
        case .item(let story, let item): return "\(story.id)#\(story.items.firstIndex(of: item) ?? -1)"
        case .transition(let transition, let then): return "\(transition.direction):" + describe(then)
        case .end: return "end"
        }
    }
}
