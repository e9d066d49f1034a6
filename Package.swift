// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "storyreel",
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .executable(name: "storyreel", targets: ["storyreel"]),
        // The manifest model and the playback navigator, for apps: Foundation only.
        .library(name: "StoryreelKit", targets: ["StoryreelKit"]),
    ],
    targets: [
        // The C bridge: FFmpeg 5.1 from Debian's -dev packages, plus a shim for its macros.
        // libavutil and libswscale are linked; libavformat and libavcodec are loaded on their
        // first call (CFFmpegOnDemand), so a command that reads no media does not load them.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libswscale",
            providers: [
                .apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])
            ]
        ),
        // libavformat's and libavcodec's functions that storyreel calls, loading them on demand.
        .target(name: "CFFmpegOnDemand", dependencies: ["CFFmpeg"]),
        // The media layer: owns every FFmpeg pointer.
        .target(name: "StoryMedia", dependencies: ["CFFmpeg", "CFFmpegOnDemand"]),
        // The cube renderer: pure Swift, no FFmpeg.
        .target(name: "CubeRender"),
        // The manifest model and the playback navigator: Foundation only, for apps and the pipeline.
        .target(name: "StoryreelKit"),
        // The stories pipeline: bundles, manifests, ingest.
        .target(name: "StoryPipeline", dependencies: ["StoryMedia", "CubeRender", "StoryreelKit"]),
        // Command-line parsing, commands, printing and exit codes.
        .target(name: "StoryreelCLI", dependencies: ["StoryPipeline", "StoryMedia", "CubeRender"]),
        // The thin executable.
        .executableTarget(name: "storyreel", dependencies: ["StoryreelCLI"]),
        // Render-only micro benchmark used by `make bench`, which also dumps the frames `cube -o`
        // encodes for the bench's CPU floor.
        .executableTarget(name: "storyreel-bench", dependencies: ["CubeRender", "StoryPipeline"]),
        // Helpers shared by the test targets: run the built binary, ffprobe, temp folders, PSNR.
        .target(name: "StoryreelTestSupport", dependencies: ["StoryreelKit"], path: "Tests/StoryreelTestSupport"),
        .testTarget(name: "StoryMediaTests", dependencies: ["StoryMedia", "StoryreelTestSupport"]),
        .testTarget(name: "CubeRenderTests", dependencies: ["CubeRender"]),
        .testTarget(name: "StoryreelKitTests", dependencies: ["StoryreelKit", "StoryreelTestSupport"]),
        .testTarget(name: "StoryPipelineTests", dependencies: ["StoryPipeline", "CubeRender", "StoryreelTestSupport"]),
        .testTarget(
            name: "StoryreelCLITests",
            dependencies: [
                "StoryreelCLI", "StoryPipeline", "StoryMedia", "CubeRender", "StoryreelKit", "StoryreelTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
