#!/usr/bin/env bash
# The ffmpeg-CLI equivalent of `storyreel render` that bench/render.sh compares against:
# ffprobe per clip, one ffmpeg poster per clip, and one cube transition per story boundary made
# by bench/ffmpeg-cube.sh (a true-perspective cube at storyreel's encoder settings, the same work
# as storyreel's), at the canvas given (the one storyreel is given with --size).
# Usage: ffmpeg-render.sh STORIES OUT [WxH] (default 1080x1920)
set -euo pipefail
STORIES="$1"
OUT="$2"
SIZE="${3:-1080x1920}"
W="${SIZE%x*}"
H="${SIZE#*x}"
CUBE="$(dirname "${BASH_SOURCE[0]}")/ffmpeg-cube.sh"
mkdir -p "$OUT/probe" "$OUT/posters" "$OUT/transitions"
previous_last=""
for story in $(ls "$STORIES" | sort); do
    [ -d "$STORIES/$story" ] || continue
    clips=$(ls "$STORIES/$story" | grep -iE '\.(mov|mp4|m4v)$' | sort -V)
    first=""
    last=""
    for clip in $clips; do
        path="$STORIES/$story/$clip"
        ffprobe -v error -show_format -show_streams -of json "$path" >"$OUT/probe/$story-$clip.json"
        ffmpeg -v error -y -ss 0.5 -i "$path" -frames:v 1 -vf "scale='min($W,iw)':-2" "$OUT/posters/$story-$clip.jpg"
        [ -n "$first" ] || first="$path"
        last="$path"
    done
    if [ -n "$previous_last" ] && [ -n "$first" ]; then
        bash "$CUBE" "$previous_last" "$first" "$OUT/transitions/$story.mp4" "$SIZE" 30 0.5
    fi
    [ -z "$last" ] || previous_last="$last"
done
