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

echo "cube render only (storyreel-bench, 1080x1920, 15 frames):"
"$BENCH_BIN" --width 1080 --height 1920 --frames 15 | sed 's/^/  /'

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
