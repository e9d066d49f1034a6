#!/usr/bin/env bash
# Bench: `storyreel render` of samples/stories against bench/ffmpeg-render.sh (same canvas), the
# no-op re-run against the first run, and scaling over synthetic libraries of 50 and 200 clips.
source "$(dirname "$0")/lib.sh"
STORIES="$ROOT/samples/stories"

compare render 5 \
    "rm -rf $WORK/reel && $BIN render $STORIES -o $WORK/reel --quiet" \
    "ffmpeg CLI script" "rm -rf $WORK/ffmpeg-reel && bash $ROOT/bench/ffmpeg-render.sh $STORIES $WORK/ffmpeg-reel"

"$BIN" render "$STORIES" -o "$WORK/reel" --quiet
compare render-noop 10 \
    "$BIN render $STORIES -o $WORK/reel --quiet" \
    "first run" "rm -rf $WORK/reel-first && $BIN render $STORIES -o $WORK/reel-first --quiet"

# Scaling: one small source clip made unique per copy by a trailing 'free' atom carrying its index,
# so every clip has its own content hash (and its own poster, thumbnail and transitions).
SOURCE="$WORK/scale-source.mp4"
[ -f "$SOURCE" ] || ffmpeg -v error -y -f lavfi -i "testsrc2=s=360x640:r=30:d=1.5" -c:v libx264 -preset veryfast \
    -pix_fmt yuv420p -movflags +faststart "$SOURCE"
echo "scaling (canvas 360x640):"
for spec in "50 10" "200 40"; do
    set -- $spec
    clips=$1
    stories=$2
    LIB="$WORK/library-$clips"
    rm -rf "$LIB" "$WORK/library-$clips-out"
    for i in $(seq 1 "$clips"); do
        story="$LIB/user$(( (i - 1) % stories ))"
        mkdir -p "$story"
        cp "$SOURCE" "$story/clip$i.mp4"
        printf '\x00\x00\x00\x10free%08d' "$i" >>"$story/clip$i.mp4"
    done
    start=$(date +%s.%N)
    peak=$(peak_memory "$BIN" render "$LIB" -o "$WORK/library-$clips-out" --size 360x640 --quiet)
    end=$(date +%s.%N)
    python3 -c "import sys; s=float(sys.argv[2])-float(sys.argv[1]); print(f'  {sys.argv[3]} clips in {sys.argv[4]} stories: {s:.1f} s, {1000*s/int(sys.argv[3]):.0f} ms per clip, peak memory {sys.argv[5]} MB')" \
        "$start" "$end" "$clips" "$stories" "$peak"
done
