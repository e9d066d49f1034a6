#!/usr/bin/env bash
# The ffmpeg-CLI equivalent of `storyreel render` that bench/render.sh compares against:
# ffprobe per clip, one ffmpeg poster per clip, and one xfade transition per story boundary,
# at the same 1080x1920 canvas. Usage: ffmpeg-render.sh STORIES OUT
set -euo pipefail
STORIES="$1"
OUT="$2"
W=1080
H=1920
mkdir -p "$OUT/probe" "$OUT/posters" "$OUT/transitions"
FILL="scale=$W:$H:force_original_aspect_ratio=increase,crop=$W:$H,setsar=1"
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
        ffmpeg -v error -y -sseof -0.1 -i "$previous_last" -t 0.6 -i "$first" -filter_complex \
            "[0:v]$FILL,trim=start_frame=0:end_frame=1,loop=loop=14:size=1,setpts=N/30/TB[a];[1:v]$FILL,trim=start_frame=0:end_frame=1,loop=loop=14:size=1,setpts=N/30/TB[b];[a][b]xfade=transition=slideleft:duration=0.5:offset=0,format=yuv420p" \
            -frames:v 15 -c:v libx264 -preset veryfast -movflags +faststart "$OUT/transitions/$story.mp4"
    fi
    [ -z "$last" ] || previous_last="$last"
done
