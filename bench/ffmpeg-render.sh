#!/usr/bin/env bash
# The ffmpeg-CLI equivalent of `storyreel render` that bench/render.sh compares against, making the
# same bundle files at the canvas given (the one storyreel is given with --size):
# - per clip: ffprobe; a copy of the clip; a poster (the first frame at 0.5 s, fitted in the canvas;
#   no smart pick) and a 180 px wide thumbnail of it; the first and the last frame filling the
#   canvas (scaled and centre-cropped, as storyreel's stills); JPEGs at about quality 85. Two ffmpeg
#   runs per clip: one for the first frame, poster and thumbnail, one for the last frame;
# - per story: its avatar.jpg filling 180x180, when there is one;
# - per story boundary: a cube transition by bench/ffmpeg-cube.sh (a true-perspective cube at
#   storyreel's encoder settings), held under storyreel's peak rule: max(2 x the higher video bit
#   rate of the two clips, 2 Mb/s scaled from 720x1280 by the canvas's pixels).
# Like storyreel's units, the clips' and stories' work runs JOBS at a time (default: the cores),
# then the transitions do.
# Not made: the manifest and the player page.
# With PARTIAL=1 in the environment it does what it did before it made the same bundle (kept as
# context), one command at a time: ffprobe, the poster (alone, one ffmpeg run) and one uncapped
# cube encode per boundary.
# Usage: ffmpeg-render.sh STORIES OUT [WxH] (default 1080x1920)
set -euo pipefail
STORIES="$1"
OUT="$2"
SIZE="${3:-1080x1920}"
W="${SIZE%x*}"
H="${SIZE#*x}"
CUBE="$(dirname "${BASH_SOURCE[0]}")/ffmpeg-cube.sh"
FILL="scale=$W:$H:force_original_aspect_ratio=increase,crop=$W:$H,setsar=1"
JPEG="-q:v 3"
PARTIAL="${PARTIAL:-0}"
JOBS="${JOBS:-$(nproc)}"
mkdir -p "$OUT/probe" "$OUT/clips" "$OUT/posters" "$OUT/thumbnails" "$OUT/stills" "$OUT/avatars" "$OUT/transitions"

# The video stream's bit rate from a probe's JSON (the container's when the stream has none).
video_bit_rate() {
    python3 -c 'import json, sys
probe = json.load(open(sys.argv[1]))
video = [s for s in probe["streams"] if s.get("codec_type") == "video"]
print(int((video[0] if video else {}).get("bit_rate") or probe["format"].get("bit_rate") or 0))' "$1"
}

# Runs a command in the background, at most JOBS at once (serially with PARTIAL=1); a failed one
# fails the script.
start() {
    if [ "$PARTIAL" = 1 ]; then
        "$@"
        return
    fi
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    "$@" &
}
finish() {
    for pid in $(jobs -p); do wait "$pid"; done
}

# One clip's files: the probe, then the copy and images (or only the poster with PARTIAL=1).
clip_files() {
    local path="$1" name="$2"
    ffprobe -v error -show_format -show_streams -of json "$path" >"$OUT/probe/$name.json"
    if [ "$PARTIAL" = 1 ]; then
        ffmpeg -v error -y -ss 0.5 -i "$path" -frames:v 1 -vf "scale='min($W,iw)':-2" "$OUT/posters/$name.jpg"
        return
    fi
    cp "$path" "$OUT/clips/$name"
    # One ffmpeg for the first frame, the poster and the thumbnail (one decode of the first 0.5 s),
    # one for the last frame (decoding from the last keyframe, as -sseof seeks).
    # shellcheck disable=SC2086  # JPEG is a list of options
    ffmpeg -v error -y -i "$path" -filter_complex "[0:v]split=2[a][b];[a]trim=end_frame=1,$FILL[first];
        [b]select='gte(t,0.5)',trim=end_frame=1,split=2[p][t];
        [p]scale=w=$W:h=$H:force_original_aspect_ratio=decrease:force_divisible_by=2[poster];
        [t]scale=180:-2[thumbnail]" \
        -map "[first]" -frames:v 1 $JPEG "$OUT/stills/$name-first.jpg" \
        -map "[poster]" -frames:v 1 $JPEG "$OUT/posters/$name.jpg" \
        -map "[thumbnail]" -frames:v 1 $JPEG "$OUT/thumbnails/$name.jpg"
    # shellcheck disable=SC2086  # JPEG is a list of options
    ffmpeg -v error -y -sseof -0.25 -i "$path" -vf "reverse,trim=end_frame=1,$FILL" -frames:v 1 $JPEG \
        "$OUT/stills/$name-last.jpg"
}

# One transition: FROM's last clip, TO's first clip, their probes, the output.
transition() {
    local from="$1" to="$2" from_probe="$3" to_probe="$4" out="$5"
    if [ "$PARTIAL" = 1 ]; then
        bash "$CUBE" "$from" "$to" "$out" "$SIZE" 30 0.5
        return
    fi
    local peak
    peak=$(awk -v a="$(video_bit_rate "$from_probe")" -v b="$(video_bit_rate "$to_probe")" \
        -v w="$W" -v h="$H" 'BEGIN {
            higher = a > b ? a : b; floor = 2000000 * w * h / (720 * 1280)
            printf "%d", (2 * higher > floor ? 2 * higher : floor) }')
    bash "$CUBE" "$from" "$to" "$out" "$SIZE" 30 0.5 "$peak"
}

boundaries=()
previous_last=""
previous_probe=""
for story in $(ls "$STORIES" | sort); do
    [ -d "$STORIES/$story" ] || continue
    clips=$(ls "$STORIES/$story" | grep -iE '\.(mov|mp4|m4v)$' | sort -V)
    if [ "$PARTIAL" != 1 ] && [ -f "$STORIES/$story/avatar.jpg" ]; then
        # shellcheck disable=SC2086  # JPEG is a list of options
        start ffmpeg -v error -y -i "$STORIES/$story/avatar.jpg" \
            -vf "scale=180:180:force_original_aspect_ratio=increase,crop=180:180" $JPEG "$OUT/avatars/$story.jpg"
    fi
    first=""
    first_probe=""
    last=""
    last_probe=""
    for clip in $clips; do
        path="$STORIES/$story/$clip"
        probe="$OUT/probe/$story-$clip.json"
        start clip_files "$path" "$story-$clip"
        [ -n "$first" ] || { first="$path"; first_probe="$probe"; }
        last="$path"
        last_probe="$probe"
    done
    if [ -n "$previous_last" ] && [ -n "$first" ]; then
        boundaries+=("$previous_last|$first|$previous_probe|$first_probe|$OUT/transitions/$story.mp4")
    fi
    [ -z "$last" ] || { previous_last="$last"; previous_probe="$last_probe"; }
done
finish
for boundary in "${boundaries[@]}"; do
    IFS='|' read -r from to from_probe to_probe out <<<"$boundary"
    start transition "$from" "$to" "$from_probe" "$to_probe" "$out"
done
finish
