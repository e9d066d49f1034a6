#!/usr/bin/env bash
# `make kit-check`: an app's view of StoryreelKit. A scratch package in a temp folder depends on
# this one by path and builds only the StoryreelKit product, with pkg-config replaced by a stub
# that records every call and fails it, and PKG_CONFIG_PATH/LIBDIR pointing at an empty folder.
# It fails when pkg-config is asked about an FFmpeg library, when any FFmpeg-side target
# (CFFmpeg, StoryMedia, CubeRender, StoryPipeline) is compiled, when the program links an FFmpeg library, or when the program does
# not decode a manifest and navigate it as expected.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SWIFT=${SWIFT:-swift}
SWIFT_PATH=$(command -v "$SWIFT")
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/storyreel-kit-check.XXXXXX")
[ -n "${KIT_CHECK_KEEP:-}" ] || trap 'rm -rf "$SCRATCH"' EXIT
mkdir -p "$SCRATCH/app/Sources/KitCheck" "$SCRATCH/stub" "$SCRATCH/empty"
# A path dependency is known by its folder's name, as a URL one is by the repository's.
ln -s "$ROOT" "$SCRATCH/storyreel"
cat > "$SCRATCH/stub/pkg-config" <<STUB
#!/bin/sh
echo "pkg-config \$*" >> "$SCRATCH/pkg-config-called"
exit 1
STUB
chmod +x "$SCRATCH/stub/pkg-config"

cat > "$SCRATCH/app/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "KitCheck",
    platforms: [.iOS(.v15), .macOS(.v12)],
    dependencies: [.package(path: "$SCRATCH/storyreel")],
    targets: [
        .executableTarget(
            name: "KitCheck", dependencies: [.product(name: "StoryreelKit", package: "storyreel")])
    ]
)
MANIFEST

cat > "$SCRATCH/app/Sources/KitCheck/main.swift" <<'PROGRAM'
import Foundation
import StoryreelKit

let json = """
    {"version": 1, "generator": "storyreel 0.1.0", "canvas": {"width": 360, "height": 640}, "duration": 4,
     "stories": [
      {"id": "a", "user": {"handle": "a", "displayName": "A", "avatar": null}, "isRead": false, "duration": 2,
       "items": [{"id": "0000000000000001", "src": "clips/1.mp4", "sha256": "\(String(repeating: "0", count: 15))1\(String(repeating: "0", count: 48))",
         "duration": 2, "width": 360, "height": 640, "rotation": 0, "frameRate": 30, "codec": "h264",
         "codecs": "avc1.64001f", "hdr": "none", "hasAudio": false, "poster": "p/1.jpg", "thumbnail": "t/1.jpg",
         "firstFrame": "s/1-first.jpg", "lastFrame": "s/1-last.jpg"}]},
      {"id": "b", "user": {"handle": "b", "displayName": "B", "avatar": null}, "isRead": false, "duration": 2,
       "items": [{"id": "0000000000000002", "src": "clips/2.mp4", "sha256": "\(String(repeating: "0", count: 15))2\(String(repeating: "0", count: 48))",
         "duration": 2, "width": 360, "height": 640, "rotation": 0, "frameRate": 30, "codec": "h264",
         "hdr": "none", "hasAudio": false, "poster": "p/2.jpg", "thumbnail": "t/2.jpg"}]}],
     "transitions": [{"from": "a", "to": "b", "direction": "forward", "src": "transitions/ab.mp4", "frames": 15,
       "fps": 30, "duration": 0.5, "width": 360, "height": 640}],
     "skipped": []}
    """
let manifest = try Manifest(jsonData: Data(json.utf8))
var navigator = StoryNavigator(manifest: manifest, seen: SeenState())
var steps: [String] = []
for _ in 0..<2 {
    switch navigator.itemDidFinish() {
    case .transition(let transition, let then): steps.append("\(transition.src) then \(then.landing?.item.src ?? "?")")
    case .item(_, let item): steps.append(item.src)
    case .end: steps.append("end")
    }
}
print(steps.joined(separator: ", "))
PROGRAM

cd "$SCRATCH/app"
PATH="$SCRATCH/stub:$PATH" PKG_CONFIG_PATH="$SCRATCH/empty" PKG_CONFIG_LIBDIR="$SCRATCH/empty" \
    "$SWIFT_PATH" build --product KitCheck > "$SCRATCH/build.log" 2>&1 || {
    cat "$SCRATCH/build.log"
    echo "kit-check: the scratch package did not build" >&2
    exit 1
}
fail() { echo "kit-check: $*" >&2; exit 1; }
# SwiftPM asks pkg-config for its search path at start-up whatever it builds; the stub fails
# that too. Asking it about an FFmpeg library means the product needs FFmpeg.
! grep -E "libav|libswscale" "$SCRATCH/pkg-config-called" 2>/dev/null || fail "pkg-config was asked about FFmpeg"
# SwiftPM plans every target (empty TARGET.build folders); a compiled one leaves objects.
for target in CFFmpeg StoryMedia CubeRender StoryPipeline; do
    ! find .build \( -path "*/$target.build/*.o" -o -name "$target.swiftmodule" \) | grep -q . \
        || fail "$target was compiled"
done
find .build -path "*/StoryreelKit.build/*.o" | grep -q . || fail "StoryreelKit was not compiled"
BIN=$("$SWIFT_PATH" build --product KitCheck --show-bin-path)/KitCheck
! ldd "$BIN" | grep -E "libav(format|codec|util)|libsw(scale|resample)" || fail "KitCheck links FFmpeg"
OUTPUT=$("$BIN")
[ "$OUTPUT" = "transitions/ab.mp4 then clips/2.mp4, end" ] || fail "the navigator said: $OUTPUT"
echo "kit-check: StoryreelKit builds alone (no pkg-config, no FFmpeg) and navigates: $OUTPUT"
