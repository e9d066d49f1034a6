import StoryMedia

extension ClipInfo {
    /// The clip as the `inspect --json` object; keys are documented in docs/inspect.md.
    package var json: JSONValue {
        .object([
            ("path", .string(path)),
            ("container", .string(container)),
            ("duration", .number(duration)),
            ("size", .int(Int(clamping: size))),
            ("bitRate", .int(bitRate)),
            ("creationTime", .string(creationTime)),
            ("video", video.map(\.json) ?? .null),
            ("audio", audio.map(\.json) ?? .null),
            ("tags", .object(tags.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("warnings", .array(warnings.map { .string($0) })),
            ("error", .null), ("exitCode", .int(0)),
        ])
    }

    /// The `inspect --json` object for a path that could not be read, with the exit code it
    /// alone would give (66 missing, 65 not a clip...): of a batch, only the first failure's
    /// sets the process's, and a script could not tell a missing path from garbage without
    /// parsing the message (a scripting QA pass).
    package static func failureJSON(path: String, message: String, exitCode: Int) -> JSONValue {
        .object([
            ("path", .string(path)), ("container", .null), ("duration", .null), ("size", .null),
            ("bitRate", .null), ("creationTime", .null), ("video", .null), ("audio", .null),
            ("tags", .object([])), ("warnings", .array([])), ("error", .string(message)),
            ("exitCode", .int(exitCode)),
        ])
    }
}

extension ClipInfo.Video {
    /// The `video` object of `inspect --json`.
    package var json: JSONValue {
        .object([
            ("codec", .string(codec)),
            ("codecs", .string(codecs)),
            ("profile", .string(profile)),
            ("codecTag", .string(codecTag)),
            ("width", .int(width)),
            ("height", .int(height)),
            ("rotation", .int(rotation)),
            ("mirrored", .bool(mirrored)),
            ("displayWidth", .int(displayWidth)),
            ("displayHeight", .int(displayHeight)),
            ("frameRate", .number(frameRate)),
            ("variableFrameRate", .bool(variableFrameRate)),
            ("frameCount", .int(frameCount)),
            ("bitRate", .int(bitRate)),
            ("pixelFormat", .string(pixelFormat)),
            ("bitDepth", .int(bitDepth)),
            ("colorTransfer", .string(colorTransfer)),
            ("colorPrimaries", .string(colorPrimaries)),
            ("colorSpace", .string(colorSpace)),
            ("colorRange", .string(colorRange)),
            ("hdr", .string(hdr)),
            ("dolbyVisionProfile", .number(dolbyVisionProfile)),
            ("masteringDisplay", lightMetadata?.masteringDisplay.map(\.json) ?? .null),
            ("maxContentLightLevel", .int(lightMetadata?.maxContentLightLevel)),
            ("maxFrameAverageLightLevel", .int(lightMetadata?.maxFrameAverageLightLevel)),
        ])
    }
}

extension HDRLightMetadata.MasteringDisplay {
    /// The `video.masteringDisplay` object of `inspect --json`.
    package var json: JSONValue {
        .object([
            ("gamut", .string(gamut)),
            ("primaries", primaries.map { .array($0.map { .array($0.map { .number($0) }) }) } ?? .null),
            ("whitePoint", whitePoint.map { .array($0.map { .number($0) }) } ?? .null),
            ("minLuminance", .number(minLuminance)), ("maxLuminance", .number(maxLuminance)),
        ])
    }
}

extension ClipInfo.Audio {
    /// The `audio` object of `inspect --json`.
    package var json: JSONValue {
        .object([
            ("codec", .string(codec)), ("codecs", .string(codecs)), ("sampleRate", .int(sampleRate)),
            ("channels", .int(channels)),
            ("channelLayout", .string(channelLayout)), ("language", .string(language)),
            ("trackCount", .int(trackCount)),
        ])
    }
}
