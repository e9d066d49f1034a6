# Shared helpers for the benches: side-by-side timing with hyperfine, ratios printed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${STORYREEL_BIN:-$ROOT/.build/release/storyreel}"
WORK="$ROOT/build/bench"
mkdir -p "$WORK"
# storyreel's transition encoder as ffmpeg CLI options: `veryfast` with VideoEncoder's shortClip
# tuning and CubeTransitionJob's CRF (23). Keep in step with those two. This is the first pass of a
# capped clip; one over its peak is encoded again at higher CRFs (1-3 more passes, VideoClipWriter),
# which no single ffmpeg command does. The cube bench's clips stay under their peak (21 Mb/s against
# about 8 Mb/s at CRF 23), so there storyreel runs exactly this one pass.
STORYREEL_X264="-c:v libx264 -preset veryfast -crf 23 -bf 0 -x264-params sliced-threads=1:rc-lookahead=5"

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
