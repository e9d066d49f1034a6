#!/usr/bin/env bash
# Bench: `storyreel cube`. Render only (storyreel-bench, Mpixel/s), then end to end: a 0.5 s,
# 30 fps, 1080x1920 transition between two 3 s H.264 clips against the same work done with the
# ffmpeg CLI alone (bench/ffmpeg-cube.sh: a true-perspective cube of the same two frames, at
# storyreel's encoder settings; storyreel runs with --shade 0, which the peer does not draw), with
# the old 2D xfade pipeline in the same run as context. Then storyreel's CPU against the floor:
# libx264's own CPU on storyreel's exact frames at its settings plus the CPU to decode the faces.
source "$(dirname "$0")/lib.sh"
BENCH_BIN="${STORYREEL_BENCH_BIN:-$ROOT/.build/release/storyreel-bench}"
# Tagged BT.709, as phones tag their clips, so that storyreel and the ffmpeg CLI read their
# colours alike (untagged, the ffmpeg CLI reads BT.601 and storyreel, as players do, BT.709).
CLIPS="$WORK/cube-clips-bt709"
TAGGED=(-vf scale=out_color_matrix=bt709:out_range=tv,format=yuv420p -colorspace bt709 -color_primaries bt709
    -color_trc bt709 -color_range tv)
SIZE=1080x1920
mkdir -p "$CLIPS"
# Two clips with detail everywhere (a test card and a Mandelbrot set, both with temporal noise).
[ -f "$CLIPS/A.mov" ] || ffmpeg -v error -y -f lavfi -i "testsrc2=s=$SIZE:r=30:d=3,noise=alls=5:allf=t+u" \
    "${TAGGED[@]}" -c:v libx264 -preset veryfast -crf 23 -g 60 -pix_fmt yuv420p "$CLIPS/A.mov"
[ -f "$CLIPS/B.mov" ] || ffmpeg -v error -y -f lavfi \
    -i "mandelbrot=s=$SIZE:r=30,trim=duration=3,noise=alls=5:allf=t+u" \
    "${TAGGED[@]}" -c:v libx264 -preset veryfast -crf 23 -g 60 -pix_fmt yuv420p "$CLIPS/B.mov"

echo "cube render only (storyreel-bench, $SIZE, 15 frames, best of 10 passes):"
"$BENCH_BIN" --width "${SIZE%x*}" --height "${SIZE#*x}" --frames 15 --repeat 10 | tee "$WORK/cube-render.txt" |
    sed 's/^/  /'
python3 - "$WORK/cube-render.txt" <<'PY' | report_targets
import re, sys
text = open(sys.argv[1]).read()
rgba = float(re.search(r"render \d+x\d+ 1 thread: ([0-9.]+) Mpixel/s", text).group(1))
planar = float(re.search(r"render yuv420p \d+x\d+ 1 thread: ([0-9.]+) Mpixel/s", text).group(1))
print(f"TARGET\tcube render only, 1080x1920, 1 thread, yuv420p (clips)\t{planar:.0f} Mpixel/s\t≥ 600 Mpixel/s\t{int(planar >= 600)}")
print(f"TARGET\tcube render only, 1080x1920, 1 thread, RGBA (frames, filmstrip)\t{rgba:.0f} Mpixel/s\t≥ 600 Mpixel/s\t{int(rgba >= 600)}")
PY

ARGS=("$CLIPS/A.mov" "$CLIPS/B.mov")
OURS=("$BIN" cube "${ARGS[@]}" --force -o "$WORK/cube-T.mp4" --size "$SIZE" --shade 0 --quiet)
PEER=(bash "$ROOT/bench/ffmpeg-cube.sh" "${ARGS[@]}" "$WORK/cube-P.mp4" "$SIZE" 30 0.5)
# Context: the 2D slide the targets used to compare against (the pipeline's own x264 settings).
FILTER="[0:v]trim=start_frame=0:end_frame=1,loop=loop=14:size=1,setpts=N/30/TB[a];"
FILTER+="[1:v]trim=start_frame=0:end_frame=1,loop=loop=14:size=1,setpts=N/30/TB[b];"
FILTER+="[a][b]xfade=transition=slideleft:duration=0.5:offset=0,format=yuv420p"
XFADE=(ffmpeg -v error -y -sseof -0.1 -i "$CLIPS/A.mov" -t 0.6 -i "$CLIPS/B.mov" -filter_complex "$FILTER"
    -frames:v 15 -c:v libx264 -preset veryfast -movflags +faststart "$WORK/cube-T2.mp4")
# Context: the same command with the dynamically linked build (.build/release, the Swift runtime
# and Foundation as shared libraries) when the bench runs the static one `make install` installs.
DYNAMIC_BIN="${STORYREEL_DYNAMIC_BIN:-$BIN}"
DYNAMIC=("$DYNAMIC_BIN" "${OURS[@]:1}")
compare cube 10 "$(printf '%q ' "${OURS[@]}")" \
    "ffmpeg cube (same work)" "$(printf '%q ' "${PEER[@]}")" \
    "ffmpeg xfade (context)" "$(printf '%q ' "${XFADE[@]}")" \
    "storyreel, dynamic runtime (context)" "$(printf '%q ' "${DYNAMIC[@]}")"
ours_peak=$(peak_memory "${OURS[@]}")
peer_peak=$(peak_memory "${PEER[@]}")
xfade_peak=$(peak_memory "${XFADE[@]}")

# The peer must draw what storyreel draws: PSNR of the middle frame, both decoded by ffmpeg, and
# a filmstrip of each (frames 0, 4, 7, 11, 14, as storyreel's --filmstrip picks them).
"$BIN" cube "${ARGS[@]}" --force --filmstrip "$WORK/cube-filmstrip-storyreel.png" --size "$SIZE" --shade 0 --quiet
ffmpeg -v error -y -i "$WORK/cube-P.mp4" -frames:v 1 -update 1 \
    -vf "select='eq(n,0)+eq(n,4)+eq(n,7)+eq(n,11)+eq(n,14)',scale=135:240,tile=5x1" "$WORK/cube-filmstrip-ffmpeg.png"
psnr=$(ffmpeg -i "$WORK/cube-T.mp4" -i "$WORK/cube-P.mp4" -filter_complex \
    "[0:v]select='eq(n,7)'[a];[1:v]select='eq(n,7)'[b];[a][b]psnr" -f null - 2>&1 |
    sed -n 's/.*PSNR.* average:\([0-9.inf]*\).*/\1/p' | xargs printf '%.1f')
echo "  ffmpeg cube against storyreel, frame 7 of 15: PSNR $psnr dB; filmstrips:" \
    "$WORK/cube-filmstrip-storyreel.png, $WORK/cube-filmstrip-ffmpeg.png"
record_target "cube: the ffmpeg peer draws storyreel's frame (frame 7)" "PSNR $psnr dB" "≥ 25 dB" \
    "$(python3 -c "import sys; print(int(float(sys.argv[1]) >= 25))" "$psnr")"

# The floor of storyreel's CPU: libx264 alone (ffmpeg CLI, raw frames in, nothing out) on the
# very frames `cube -o` encodes (storyreel-bench --clip-frames draws them as the job does, from
# the faces it decodes, and writes them raw; the bench checks they are those frames: libx264 at
# storyreel's settings makes the same pictures from them) at storyreel's settings, less the same
# run without an encoder (ffmpeg's start-up and reading); plus decoding the faces, each less the
# same run copying the packets instead (start-up, demuxing): FROM from its last keyframe to its
# last frame, skipping the frames nothing refers to (the last one is a P-frame, so it is decoded),
# and TO's first frame on one thread. storyreel's own CPU and wall time are measured in the same
# interleaved rounds as the floor's commands and the same-work peer (bench/interleave.py: each
# round runs every command once), and each target is the median of the rounds' ratios, so a
# machine that speeds up or slows down during the bench moves both sides alike.
"$BENCH_BIN" --clip-frames "${ARGS[@]}" "$WORK/cube-T.yuv" --width "${SIZE%x*}" --height "${SIZE#*x}"
# shellcheck disable=SC2086  # the settings are words
ffmpeg -v error -y -f rawvideo -pix_fmt yuv420p -s "$SIZE" -r 30 -i "$WORK/cube-T.yuv" $STORYREEL_X264 \
    "$WORK/cube-T-floor.mp4"
same=$(ffmpeg -i "$WORK/cube-T.mp4" -i "$WORK/cube-T-floor.mp4" -lavfi psnr -f null - 2>&1 |
    sed -n 's/.*PSNR.* average:\([0-9.inf]*\).*/\1/p')
echo "  the floor's frames encoded at storyreel's settings against cube -o's clip: PSNR $same dB"
# A floor measured on other frames than storyreel's would compare other work: the bench stops.
[ "$same" = inf ] || { echo "bench/cube.sh: the floor's frames are not the frames cube -o encodes" >&2; exit 1; }
ffmpeg -v error -y -i "$WORK/cube-T2.mp4" -f rawvideo -pix_fmt yuv420p "$WORK/cube-T2.yuv"
ENCODE="ffmpeg -v error -f rawvideo -pix_fmt yuv420p -s $SIZE -r 30 -i"
PIPELINE_X264="-c:v libx264 -preset veryfast"
DECODE_A="ffmpeg -v error -skip_frame noref -sseof -0.25 -i $CLIPS/A.mov -map 0:v"
DECODE_B="ffmpeg -v error -threads 1 -i $CLIPS/B.mov -map 0:v -frames:v 1"
# Context: what loading FFmpeg's shared libraries costs any program linked to them (Debian's
# libavcodec and libavformat pull in 132 libraries, each built with BIND_NOW): a C program that
# links the four storyreel uses and does nothing, run in the same rounds. (storyreel links
# libavutil and libswscale, and loads the other two when it first reads media, as `cube` does.)
LIBS_ONLY=()
COMPILER="$(command -v cc || command -v clang || true)"
if [ -n "$COMPILER" ]; then
    printf '#include <libavformat/avformat.h>\n#include <libswscale/swscale.h>\n%s\n' \
        'int main(void) { return avformat_version() == 0 || swscale_version() == 0; }' > "$WORK/libs-only.c"
    # shellcheck disable=SC2046  # pkg-config's flags are words
    "$COMPILER" -O2 "$WORK/libs-only.c" -o "$WORK/libs-only" \
        $(pkg-config --cflags --libs libavformat libavcodec libswscale libavutil) && LIBS_ONLY=("libs=$WORK/libs-only")
fi
python3 "$ROOT/bench/interleave.py" 10 "$WORK/cube-floor.json" "${LIBS_ONLY[@]}" \
    "storyreel=$(printf '%q ' "${OURS[@]}")" "peer=$(printf '%q ' "${PEER[@]}")" \
    "x264=$ENCODE $WORK/cube-T.yuv $STORYREEL_X264 -f null -" "read=$ENCODE $WORK/cube-T.yuv -f null -" \
    "decode_a=$DECODE_A -f null -" "demux_a=$DECODE_A -c copy -f null -" \
    "decode_b=$DECODE_B -f null -" "demux_b=$DECODE_B -c copy -f null -" \
    "slide=$ENCODE $WORK/cube-T2.yuv $PIPELINE_X264 -f null -" "cube=$ENCODE $WORK/cube-T.yuv $PIPELINE_X264 -f null -"
mb_stats() {
    ffmpeg -f rawvideo -pix_fmt yuv420p -s "$SIZE" -r 30 -i "$1" $PIPELINE_X264 -f null - 2>&1 |
        sed -n 's/.*mb P  I16..4: *\([0-9.]*\)% *\([0-9.]*\)% *\([0-9.]*\)%.*skip: *\([0-9.]*\)%.*/\1 \2 \3 \4/p'
}
python3 - "$WORK/cube.json" "$WORK/cube-floor.json" "$ours_peak" "$peer_peak" "$xfade_peak" \
    "$(mb_stats "$WORK/cube-T2.yuv")" "$(mb_stats "$WORK/cube-T.yuv")" <<'PY' |
import json, sys
from statistics import median
ours, peer, xfade, dynamic = json.load(open(sys.argv[1]))["results"][:4]
rounds = json.load(open(sys.argv[2]))
cpu = lambda r: r["user"] + r["system"]
# Per round: each command's CPU (user + system), then medians over the rounds.
per_round = {name: [u + s for u, s in zip(r["user"], r["system"])] for name, r in rounds.items()}
net = lambda name, base: [a - b for a, b in zip(per_round[name], per_round[base])]
ours_peak, peer_peak, xfade_peak = map(int, sys.argv[3:6])
rows = []
def target(name, result, goal, ok):
    rows.append(f"{name}\t{result}\t{goal}\t{int(ok)}")

# The wall-time target from the interleaved rounds below (storyreel and the peer once a round).
wall_ratios = [o / p for o, p in zip(rounds["storyreel"]["wall"], rounds["peer"]["wall"])]
wall = median(wall_ratios)
print(f"  wall time (hyperfine, one command after the other): storyreel {ours['mean']:.2f} s, ffmpeg cube "
      f"{peer['mean']:.2f} s -> {ours['mean'] / peer['mean']:.2f}x its time")
print(f"  wall time (interleaved rounds): storyreel {median(rounds['storyreel']['wall']):.2f} s, ffmpeg cube "
      f"{median(rounds['peer']['wall']):.2f} s -> {wall:.2f}x its time (median of the rounds' ratios, "
      f"{min(wall_ratios):.2f}-{max(wall_ratios):.2f})")
target("cube end to end, 1080x1920, vs ffmpeg cube (same work)", f"{wall:.2f}x its wall time", "≤ 0.35×", wall <= 0.35)
print(f"  context: ffmpeg xfade (a 2D slide, not the same work) {xfade['mean']:.2f} s "
      f"-> storyreel takes {ours['mean'] / xfade['mean']:.2f}x its time")
print(f"  peak memory: storyreel {ours_peak} MB, ffmpeg cube {peer_peak} MB, ffmpeg xfade {xfade_peak} MB")
target("cube peak memory vs ffmpeg xfade", f"{ours_peak / xfade_peak:.0%} of its {xfade_peak} MB", "≤ 60%",
       ours_peak <= 0.6 * xfade_peak)

x264_rounds, decode_a_rounds, decode_b_rounds = net("x264", "read"), net("decode_a", "demux_a"), net("decode_b", "demux_b")
floor_rounds = [a + b + c for a, b, c in zip(x264_rounds, decode_a_rounds, decode_b_rounds)]
ratios = [o / f for o, f in zip(per_round["storyreel"], floor_rounds)]
x264, decode_a, decode_b = median(x264_rounds), median(decode_a_rounds), median(decode_b_rounds)
floor, ours_cpu, ratio = median(floor_rounds), median(per_round["storyreel"]), median(ratios)
ours_user, ours_system = median(rounds["storyreel"]["user"]), median(rounds["storyreel"]["system"])
print(f"  CPU floor: libx264 on storyreel's frames at its settings {x264:.2f} s + decoding FROM's last frame "
      f"{decode_a:.2f} s + TO's first {decode_b:.2f} s = {floor:.2f} s (each net of ffmpeg's start-up; "
      f"medians of {len(ratios)} interleaved rounds)")
print(f"  CPU: storyreel {ours_cpu:.2f} s (user {ours_user:.2f} + system {ours_system:.2f}) "
      f"= {ratio:.2f}x the floor (median of the rounds' ratios, {min(ratios):.2f}-{max(ratios):.2f}); "
      f"ffmpeg cube {cpu(peer):.2f} s")
if "libs" in per_round:
    load = median(per_round["libs"])
    less = median([(o - l) / f for o, l, f in zip(per_round["storyreel"], per_round["libs"], floor_rounds)])
    print(f"  context: loading FFmpeg's shared libraries, which any program linked to them pays (a C program that "
          f"only links them): {load * 1000:.0f} ms of CPU; storyreel less that: {less:.2f}x the floor")
print(f"  context, the same with the dynamic runtime (.build/release): {cpu(dynamic):.2f} s "
      f"= {cpu(dynamic) / floor:.2f}x the floor, {dynamic['mean']:.2f} s wall (not interleaved)")
target("cube -o CPU vs the floor (libx264 + face decoding)", f"{ratio:.2f}x ({ours_cpu:.2f} s / {floor:.2f} s)",
       "≤ 1.25×", ratio <= 1.25)

# Context: why the xfade pipeline was not the same work.
def coding(stats):
    i16, i8, i4, skip = map(float, stats.split())
    return f"P-frame macroblocks {i16 + i8 + i4:.0f}% intra, {skip:.0f}% skipped"
slide, cube = median(net("slide", "read")), median(net("cube", "read"))
print(f"  context, libx264 alone at the xfade pipeline's settings: xfade frames {slide:.2f} s CPU "
      f"({coding(sys.argv[6])}), cube frames {cube:.2f} s ({coding(sys.argv[7])})")
for row in rows:
    print("TARGET\t" + row)
PY
    report_targets
