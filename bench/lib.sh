# Shared helpers for the benches: side-by-side timing with hyperfine, ratios printed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${STORYREEL_BIN:-$ROOT/.build/release/storyreel}"
WORK="$ROOT/build/bench"
mkdir -p "$WORK"
# storyreel's transition encoder as ffmpeg CLI options: `veryfast` with VideoEncoder's shortClip
# tuning and CubeTransitionJob's CRF (23). Keep in step with those two. This is the first pass of a
# capped clip; one over its peak is encoded again at higher CRFs (VideoClipWriter's
# RateFactorSearch), which bench/ffmpeg-cube.sh does too when given a peak (render's script gives
# one). The cube bench's clips stay under their peak (21 Mb/s against about 8 Mb/s at CRF 23), so
# there storyreel runs exactly this one pass.
# storyreel gives libx264 the CPU flags it detects less AVX-512 (VideoEncoder.x264CPUFlags:
# its AVX-512 code made identical pictures into different files from run to run); so does this.
X264_ASM=$(python3 - <<'PY'
import ctypes
try:
    x264 = ctypes.CDLL("libx264.so.164")
    class Name(ctypes.Structure):
        _fields_ = [("name", ctypes.c_char_p), ("flags", ctypes.c_uint32)]
    names = (Name * 64).in_dll(x264, "x264_cpu_names")
    flags = {}
    for entry in names:
        if not entry.flags:
            break
        flags[entry.name.decode()] = entry.flags
    own = flags.get("AVX512", 0) & ~flags.get("AVX2", 0)
    x264.x264_cpu_detect.restype = ctypes.c_uint32
    detected = x264.x264_cpu_detect()
    print(f":asm={detected & ~own}" if flags.get("AVX2") and own and detected & own else "")
except OSError:
    print("")
PY
)
STORYREEL_X264="-c:v libx264 -preset veryfast -crf 23 -bf 0 -x264-params sliced-threads=1:rc-lookahead=5$X264_ASM"

# compare NAME RUNS CMD_OURS LABEL_PEER1 CMD_PEER1 [LABEL_PEER2 CMD_PEER2 ...]
# Runs all commands in one hyperfine call (interleaved warm-up, same machine state) and prints
# each peer's mean time over storyreel's mean time.
compare() {
    local name="$1" runs="$2" ours="$3"
    shift 3
    local args=(--warmup 1 --runs "$runs" --export-json "$WORK/$name.json" --style basic -n storyreel "$ours")
    while [ $# -gt 0 ]; do
        args+=(-n "$1" "$2")
        shift 2
    done
    hyperfine "${args[@]}" >"$WORK/$name.log" 2>&1 || { cat "$WORK/$name.log"; return 1; }
    python3 - "$WORK/$name.json" "$name" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
ours = results[0]
print(f"{sys.argv[2]}: storyreel {ours['mean']*1000:.1f} ms ± {ours['stddev']*1000:.1f}")
for peer in results[1:]:
    print(f"  {peer['command']}: {peer['mean']*1000:.1f} ms ± {peer['stddev']*1000:.1f}  "
          f"-> storyreel is {peer['mean']/ours['mean']:.1f}x faster")
PY
}

# peak_memory CMD...: prints the peak resident set size in MB of a command (GNU time).
peak_memory() {
    /usr/bin/time -f "%M" -o "$WORK/rss.txt" "$@" >/dev/null 2>&1
    echo "$(( $(cat "$WORK/rss.txt") / 1024 ))"
}

# Every target a bench checks is recorded here (bench, result, target, ✓/✗, tab-separated);
# run.sh starts it empty and prints it as the summary table at the end.
export TARGETS="$WORK/targets.tsv"

# record_target BENCH RESULT TARGET OK: prints the verdict and records one row; OK is 1 or 0.
record_target() {
    local mark="✗"
    [ "$4" = 1 ] && mark="✓"
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$mark" >>"$TARGETS"
    echo "  target: $1: $2 (target $3) $mark"
}

# speedup_target NAME PEER_INDEX MIN LABEL: from compare NAME's results, storyreel must be at
# least MIN times faster than peer PEER_INDEX (1 = the first peer); LABEL names the row.
speedup_target() {
    local result
    result=$(python3 - "$WORK/$1.json" "$2" "$3" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
speedup = results[int(sys.argv[2])]["mean"] / results[0]["mean"]
print(f"{speedup:.1f}x faster {int(speedup >= float(sys.argv[3]))}")
PY
)
    record_target "$4" "${result% *}" "≥ $3× faster" "${result##* }"
}

# report_targets: copies its input to the output, except lines "TARGET<tab>BENCH<tab>RESULT<tab>
# TARGET<tab>OK", which it records with record_target (how the benches' python reports targets).
report_targets() {
    local line name result goal ok
    while IFS= read -r line; do
        if [[ "$line" == TARGET$'\t'* ]]; then
            IFS=$'\t' read -r _ name result goal ok <<<"$line"
            record_target "$name" "$result" "$goal" "$ok"
        else
            echo "$line"
        fi
    done
}

# The demo's three forward transitions: the last clip of each story to the first of the next, in
# play order (bench/quality.sh, bench/hevc.sh).
DEMO_PAIRS=(
    "ana.lima/IMG_0002.MOV ben_k/1.mp4"
    "ben_k/10.mp4 chloe/morning.mp4"
    "chloe/night.mp4 dev-ops/deploy.mov"
)

# frames_psnr CLIP FRAMES_DIR GRAPH: the clip's average PSNR against the lossless frames (30 fps
# PNGs), GRAPH making its [a] of the clip ([0:v]) and its [b] of the frames ([1:v]) first.
frames_psnr() {
    ffmpeg -nostats -i "$1" -framerate 30 -i "$2/frame_%04d.png" -lavfi "$3;[a][b]psnr" \
        -f null - 2>&1 | sed -n 's/.*PSNR .* average:\([0-9.inf]*\).*/\1/p'
}

# video_bytes CLIP: the bytes of the clip's video packets.
video_bytes() {
    ffprobe -v error -select_streams v:0 -show_entries packet=size -of csv=p=0 "$1" | awk '{ s += $1 } END { print s }'
}
