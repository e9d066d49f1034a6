import CubeRender

/// One piece of bundle work whose output is named by a key derived from everything that goes
/// into it: the inputs' contents, the parameters and the renderer version. An output that
/// exists under its key is never redone.
public struct WorkUnit: Sendable, Equatable {
    /// What the unit makes.
    public enum Kind: String, Sendable {
        case clip, poster, thumbnail, avatar, transition
        /// The still of an item's first displayed frame, fitted to the canvas.
        case firstFrame = "first-frame"
        /// The still of an item's last displayed frame, fitted to the canvas.
        case lastFrame = "last-frame"

        /// The order in which the plan lists units (an item's, then the story's avatar, then the
        /// transitions); reports list kinds in it.
        public static let planOrder: [Kind] = [
            .clip, .poster, .thumbnail, .firstFrame, .lastFrame, .avatar, .transition,
        ]
    }

    /// Another copy of a unit's input: the same content at another path (a clip reposted in
    /// another story), which the unit is made from when its own copy changes or goes meanwhile.
    public struct OtherCopy: Sendable, Equatable {
        /// The copy's path, absolute.
        public var source: String
        /// The copy's path, relative to the stories input.
        public var sourceLabel: String
        /// The story it is in.
        public var story: String
    }

    /// What a transition is made from, and how: the parameters are the very value the worker
    /// renders with, and the unit's key is made from their canonical text.
    public struct Transition: Sendable, Equatable {
        /// The outgoing story's id.
        public var fromStory: String
        /// The incoming story's id.
        public var toStory: String
        /// Absolute path of the clip giving face A.
        public var fromClip: String
        /// Absolute path of the clip giving face B.
        public var toClip: String
        /// The clip giving face B, relative to the stories input (for messages; face A's is the
        /// unit's ``WorkUnit/sourceLabel``).
        public var toLabel: String
        /// Everything that decides the transition's bytes (the renderer's thread count aside),
        /// its direction included.
        public var parameters: CubeTransitionJob.Parameters

        /// Which way the cube turns.
        public var direction: CubeDirection { parameters.direction }
    }

    /// What the unit makes.
    public var kind: Kind
    /// The content key (hex).
    public var key: String
    /// The output path, relative to the bundle.
    public var output: String
    /// The story the unit belongs to.
    public var story: String
    /// The input file (clip or avatar), absolute; for transitions, the outgoing clip.
    public var source: String
    /// The input, relative to the stories input (for `plan` and skipped entries).
    public var sourceLabel: String
    /// For transitions: the faces and the parameters.
    public var transition: Transition?
    /// Other copies of the input, in plan order (not for transitions): a repost's units are
    /// planned once, from the first copy, and an unchanged copy in another story was skipped
    /// with the first one when only that one changed during the render (a QA pass).
    public var otherCopies: [OtherCopy] = []
    /// For images: the size storyreel writes it at (``ImageSize``); a file of another size under
    /// its name is not storyreel's.
    public var imageSize: Manifest.Size?

    /// How people name the unit: `ana.lima → ben_k` for a transition (from story to story),
    /// else its input, relative to the stories input. `plan` and the progress line show it.
    public var title: String {
        guard let transition else { return sourceLabel }
        return "\(transition.fromStory) → \(transition.toStory)"
    }

    /// What making the unit costs, roughly, in stills at the canvas size (decoding a frame,
    /// scaling it and writing a JPEG), for the progress report's ETA: a transition two stills a
    /// frame (rendered, encoded, sometimes encoded again under its peak), five times that in HEVC;
    /// a clip copy or an avatar a fraction of one. Measured on the samples at 540x960 and
    /// 1080x1920: 0.6 and 1.7 s of CPU for an H.264 transition, 3.8 and 9.2 s in HEVC, against
    /// about 0.02 and 0.05 s a still.
    var estimatedCost: Double {
        switch kind {
        case .transition:
            guard let transition else { return 1 }
            let job = CubeTransitionJob(
                from: transition.fromClip, to: transition.toClip, parameters: transition.parameters)
            return 2 * Double(max(1, job.frameCount)) * (transition.parameters.codec == .hevc ? 5 : 1)
        case .poster, .thumbnail, .firstFrame, .lastFrame: return 1
        case .clip, .avatar: return 0.3
        }
    }

    /// This unit made from `copy`, one of ``otherCopies``, instead of its own input.
    func madeFrom(_ copy: OtherCopy) -> WorkUnit {
        var unit = self
        unit.source = copy.source
        unit.sourceLabel = copy.sourceLabel
        unit.story = copy.story
        unit.otherCopies.removeAll { $0 == copy }
        return unit
    }
}
