#!/usr/bin/env bash
# Bench: `storyreel inspect --json` over 50 clips, against a loop of ffprobe and one mediainfo call.
source "$(dirname "$0")/lib.sh"
CLIPS="$WORK/inspect-clips"
rm -rf "$CLIPS" && mkdir -p "$CLIPS"
mapfile -t SOURCES < <(find "$ROOT/samples" -type f \( -iname '*.mp4' -o -iname '*.mov' \) | sort)
for i in $(seq 1 50); do
    src="${SOURCES[$(( (i - 1) % ${#SOURCES[@]} ))]}"
    cp "$src" "$CLIPS/clip$(printf %02d "$i").${src##*.}"
done
compare inspect 10 \
    "$BIN inspect --json $CLIPS/*" \
    "ffprobe loop" "for f in $CLIPS/*; do ffprobe -v error -show_format -show_streams -of json \"\$f\"; done" \
    "mediainfo" "mediainfo --Output=JSON $CLIPS/*"
speedup_target inspect 1 10 "inspect, 50 clips, vs ffprobe loop"
speedup_target inspect 2 1 "inspect, 50 clips, vs mediainfo"
