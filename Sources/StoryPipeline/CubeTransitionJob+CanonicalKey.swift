import StoryMedia

extension CubeTransitionJob.Parameters {
    /// The parameters as canonical text, one `name=value` per field in a fixed order, numbers in
    /// their shortest round-tripping form: what a transition's cache key is made from. Every
    /// field that changes the clip's bytes is in it; the renderer's thread count, which does not,
    /// is left out.
    public var canonicalKey: String {
        canonicalFields.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
    }

    /// The fields of ``canonicalKey``, by name (the names of the stored properties they come from).
    var canonicalFields: [(name: String, value: String)] {
        [
            ("width", width.map(String.init) ?? "from"), ("height", height.map(String.init) ?? "from"),
            ("duration", JSONValue.format(duration)), ("fps", JSONValue.format(fps)), ("easing", easing.rawValue),
            ("perspective", JSONValue.format(perspective)), ("shade", JSONValue.format(shade)),
            ("direction", direction.rawValue), ("codec", codec.rawValue), ("crf", "\(crf)"), ("preset", preset),
            ("maxBitrate", maxBitrate.map(String.init) ?? "none"),
        ]
    }
}
