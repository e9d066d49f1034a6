#!/usr/bin/env bash
# Bench: `storyreel cube`. Render only (storyreel-bench, Mpixel/s), then end to end: a 0.5 s,
# 30 fps, 1080x1920 transition between two 3 s H.264 clips (GOP 60, so the last frame needs half
# a GOP decoded) against an ffmpeg CLI pipeline that does the same work with xfade: seek near the
# end of A, take its last frame and B's first, 15 frames, libx264 veryfast, +faststart.
source "$(dirname "$0")/lib.sh"
BENCH_BIN="${STORYREEL_BENCH_BIN:-$ROOT/.build/release/storyreel-bench}"
CLIPS="$WORK/cube-clips"
mkdir -p "$CLIPS"
# Two clips with detail everywhere (a test card and a Mandelbrot set, both with temporal noise).
[ -f "$CLIPS/A.mov" ] || ffmpeg -v error -y -f lavfi -i "testsrc2=s=1080x1920:r=30:d=3,noise=alls=5:allf=t+u" \
    -c:v libx264 -preset veryfast -crf 23 -g 60 -pix_fmt yuv420p "$CLIPS/A.mov"
[ -f "$CLIPS/B.mov" ] || ffmpeg -v error -y -f lavfi \
    -i "mandelbrot=s=1080x1920:r=30,trim=duration=3,noise=alls=5:allf=t+u" \
    -c:v libx264 -preset veryfast -crf 23 -g 60 -pix_fmt yuv420p "$CLIPS/B.mov"

echo "cube render only (storyreel-bench, 1080x1920, 15 frames, best of 10 passes):"
"$BENCH_BIN" --width 1080 --height 1920 --frames 15 --repeat 10 | sed 's/^/  /'

OURS=("$BIN" cube "$CLIPS/A.mov" "$CLIPS/B.mov" -o "$WORK/cube-T.mp4" --quiet)
FILTER="[0:v]trim=start_frame=0:end_frame=1,loop=loop=14:size=1,setpts=N/30/TB[a];"
FILTER+="[1:v]trim=start_frame=0:end_frame=1,loop=loop=14:size=1,setpts=N/30/TB[b];"
FILTER+="[a][b]xfade=transition=slideleft:duration=0.5:offset=0,format=yuv420p"
PEER=(ffmpeg -v error -y -sseof -0.1 -i "$CLIPS/A.mov" -t 0.6 -i "$CLIPS/B.mov" -filter_complex "$FILTER"
    -frames:v 15 -c:v libx264 -preset veryfast -movflags +faststart "$WORK/cube-T2.mp4")
compare cube 10 "${OURS[*]}" "ffmpeg xfade" "$(printf '%q ' "${PEER[@]}")"
ours_peak=$(peak_memory "${OURS[@]}")
peer_peak=$(peak_memory "${PEER[@]}")
python3 - "$WORK/cube.json" "$ours_peak" "$peer_peak" <<'PY'
import json, sys
ours, peer = json.load(open(sys.argv[1]))["results"][:2]
print(f"  wall time: storyreel {ours['mean']:.2f} s, ffmpeg {peer['mean']:.2f} s "
      f"-> {ours['mean'] / peer['mean']:.2f}x ffmpeg's (target <= 0.5x)")
print(f"  peak memory: storyreel {sys.argv[2]} MB, ffmpeg {sys.argv[3]} MB "
      f"-> {int(sys.argv[2]) / int(sys.argv[3]):.0%} of ffmpeg's (target <= 60%)")
PY

# Where the wall-time target goes: libx264 alone (ffmpeg CLI, raw frames in, nothing out) on the
# pipeline's 15 xfade frames and on storyreel's 15 cube frames, first with the pipeline's own
# settings, then with storyreel's (CRF 20, no B-frames, 5-frame lookahead, slice threads). Its CPU
# time (less ffmpeg's own start-up and reading) over 2 cores is a floor for storyreel's wall time,
# before any decoding. The warped faces
# defeat motion compensation (most P-frame macroblocks are intra coded); sliding frames do not.
for side in T T2; do
    ffmpeg -v error -y -i "$WORK/cube-$side.mp4" -f rawvideo -pix_fmt yuv420p "$WORK/cube-$side.yuv"
done
ENCODE="ffmpeg -v error -f rawvideo -pix_fmt yuv420p -s 1080x1920 -r 30 -i"
PIPELINE_X264="-c:v libx264 -preset veryfast"
hyperfine -N --warmup 1 --runs 10 --export-json "$WORK/cube-x264.json" --style none \
    "$ENCODE $WORK/cube-T2.yuv $PIPELINE_X264 -f null -" "$ENCODE $WORK/cube-T.yuv $PIPELINE_X264 -f null -" \
    "$ENCODE $WORK/cube-T.yuv $STORYREEL_X264 -f null -" "$ENCODE $WORK/cube-T.yuv -f null -" >/dev/null 2>&1
mb_stats() {
    ffmpeg -f rawvideo -pix_fmt yuv420p -s 1080x1920 -r 30 -i "$1" $PIPELINE_X264 -f null - 2>&1 |
        sed -n 's/.*mb P  I16..4: *\([0-9.]*\)% *\([0-9.]*\)% *\([0-9.]*\)%.*skip: *\([0-9.]*\)%.*/\1 \2 \3 \4/p'
}
python3 - "$WORK/cube.json" "$WORK/cube-x264.json" "$(mb_stats "$WORK/cube-T2.yuv")" "$(mb_stats "$WORK/cube-T.yuv")" <<'PY'
import json, sys
pipeline = json.load(open(sys.argv[1]))["results"][1]["mean"]
slide, cube, tuned, reading = json.load(open(sys.argv[2]))["results"][:4]
def coding(stats):
    i16, i8, i4, skip = map(float, stats.split())
    return f"P-frame macroblocks {i16 + i8 + i4:.0f}% intra, {skip:.0f}% skipped"
print(f"  libx264 alone, pipeline's settings: xfade frames {slide['mean']:.2f} s ({coding(sys.argv[3])}), "
      f"cube frames {cube['mean']:.2f} s = {cube['mean'] / pipeline:.2f}x the pipeline ({coding(sys.argv[4])})")
# libx264's CPU: the encoding run less the same run without an encoder (start-up, reading).
cpu = tuned["user"] + tuned["system"] - reading["user"] - reading["system"]
print(f"  libx264 alone, storyreel's settings: cube frames {tuned['mean']:.2f} s, {cpu:.2f} s of libx264 CPU, "
      f"so at least {cpu / 2:.2f} s on 2 cores = {cpu / 2 / pipeline:.2f}x the pipeline before any decoding")
ours = json.load(open(sys.argv[1]))["results"][0]
print(f"  CPU: storyreel uses {ours['user'] + ours['system']:.2f} s; 0.5x on 2 cores allows {2 * 0.5 * pipeline:.2f} s")
PY
