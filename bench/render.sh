#!/usr/bin/env bash
# Bench: `storyreel render` of samples/stories against bench/ffmpeg-render.sh (the same bundle
# files: clip copies, posters, thumbnails, first and last frame stills, avatars, and
# bench/ffmpeg-cube.sh's true-perspective cubes held under the same peak rule by the same CRF
# search), both at one canvas given explicitly; as context, the script as it was before it made the
# same bundle (PARTIAL=1: probes, posters, one uncapped encode per cube); the no-op re-run against
# the first run; and scaling over synthetic libraries of 50 and 200 clips.
source "$(dirname "$0")/lib.sh"
STORIES="$ROOT/samples/stories"
# The canvas render's default gives samples/stories (the largest item, every clip there is
# 540x960, fitted in 1080x1920), passed to both so they do the same work whatever the default is.
RENDER_SIZE="${RENDER_SIZE:-540x960}"

compare render 5 \
    "rm -rf $WORK/reel && $BIN render $STORIES -o $WORK/reel --size $RENDER_SIZE --quiet" \
    "ffmpeg CLI script" \
    "rm -rf $WORK/ffmpeg-reel && bash $ROOT/bench/ffmpeg-render.sh $STORIES $WORK/ffmpeg-reel $RENDER_SIZE" \
    "ffmpeg CLI script, partial (before)" \
    "rm -rf $WORK/ffmpeg-partial && PARTIAL=1 bash $ROOT/bench/ffmpeg-render.sh $STORIES $WORK/ffmpeg-partial $RENDER_SIZE"
# The same render with a 2x2 canvas: everything but the transitions' pixels (probing, hashing,
# copying, posters, thumbnails, avatars), to show where the 0.3x budget goes.
hyperfine -N --warmup 1 --runs 5 --export-json "$WORK/render-tiny.json" --style none \
    --prepare "rm -rf $WORK/reel-tiny" "$BIN render $STORIES -o $WORK/reel-tiny --size 2x2 --quiet" >/dev/null 2>&1
# And libx264 alone (ffmpeg CLI, storyreel's encoder settings, less ffmpeg's own start-up and
# reading) re-encoding the render's transition frames: its CPU time over 2 cores is a floor for
# the render's wall time.
rm -f "$WORK"/render-*.yuv
for clip in "$WORK"/reel/transitions/*.mp4; do
    ffmpeg -v error -y -i "$clip" -f rawvideo -pix_fmt yuv420p "$WORK/render-$(basename "$clip" .mp4).yuv"
done
READ="for f in $WORK/render-*.yuv; do ffmpeg -v error -f rawvideo -pix_fmt yuv420p -s $RENDER_SIZE -r 30 -i \$f"
hyperfine --warmup 1 --runs 5 --export-json "$WORK/render-x264.json" --style none \
    "$READ $STORYREEL_X264 -f null -; done" "$READ -f null -; done" >/dev/null 2>&1
python3 - "$WORK/render.json" "$WORK/render-tiny.json" "$WORK/render-x264.json" "$RENDER_SIZE" <<'PY' |
import json, sys
ours, script, partial = (r["mean"] for r in json.load(open(sys.argv[1]))["results"][:3])
tiny = json.load(open(sys.argv[2]))["results"][0]["mean"]
# libx264's CPU: the encoding runs less the same runs without an encoder (start-up, reading).
cpu = sum(sign * (r["user"] + r["system"]) for sign, r in zip((1, -1), json.load(open(sys.argv[3]))["results"]))
print(f"  wall time at {sys.argv[4]}: storyreel {ours:.2f} s, the script {script:.2f} s -> {ours / script:.2f}x its time")
print(f"  context: the partial script (probes, posters, uncapped cubes) {partial:.2f} s -> {ours / partial:.2f}x its time")
print(f"  with a 2x2 canvas (no transition pixels): {tiny * 1000:.0f} ms = {tiny / script:.2f}x")
print(f"  libx264 alone on the transitions' frames: {cpu:.2f} s of CPU, so at least {cpu / 2:.2f} s on 2 cores "
      f"= {cpu / 2 / script:.2f}x the script")
storyreel = json.load(open(sys.argv[1]))["results"][0]
print(f"  CPU: storyreel uses {storyreel['user'] + storyreel['system']:.2f} s; 0.3x on 2 cores allows {2 * 0.3 * script:.2f} s")
print(f"TARGET\trender samples/stories, {sys.argv[4]}, vs the ffmpeg script (the same bundle)\t"
      f"{ours / script:.2f}x its wall time\t≤ 0.3×\t{int(ours / script <= 0.3)}")
PY
    report_targets

"$BIN" render "$STORIES" -o "$WORK/reel" --size "$RENDER_SIZE" --quiet
compare render-noop 10 \
    "$BIN render $STORIES -o $WORK/reel --size $RENDER_SIZE --quiet" \
    "first run" "rm -rf $WORK/reel-first && $BIN render $STORIES -o $WORK/reel-first --size $RENDER_SIZE --quiet"
python3 - "$WORK/render-noop.json" <<'PY' | report_targets
import json, sys
noop, first = (r["mean"] for r in json.load(open(sys.argv[1]))["results"][:2])
print(f"TARGET\trender, no-op re-run\t{noop / first:.1%} of the first run\t≤ 5%\t{int(noop <= 0.05 * first)}")
PY

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
