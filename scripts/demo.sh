#!/usr/bin/env bash
# `make demo`: storyreel's main job on samples/. Inspects the sample clips, renders the sample
# stories into build/reel (its cube transitions included), writes the story clips' posters under
# build/demo/posters, and shows `cube` on one pair, backward, under build/demo/transitions.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${STORYREEL_BIN:-.build/release/storyreel}"
DEMO=build/demo

echo "== storyreel inspect samples/*.mp4 samples/*.mov"
"$BIN" inspect samples/*.mp4 samples/*.mov

echo "== storyreel render samples/stories -o build/reel"
status=0
"$BIN" render samples/stories -o build/reel || status=$?

echo "== the bundle: clips against transitions, and each transition against its peak"
# The peak rule (docs/bundles.md, `render`): 2 × the higher video bit rate of the two clips a transition
# joins, at least 2 Mb/s at 720x1280 scaled by canvas pixels.
"$BIN" inspect --json build/reel/clips/* >build/reel-clips.json
python3 - build/reel/manifest.json build/reel-clips.json <<'PY'
import json, os, sys
manifest = json.load(open(sys.argv[1]))
rates = {os.path.basename(c["path"]): (c["video"] or {}).get("bitRate") or 0 for c in json.load(open(sys.argv[2]))}
root = os.path.dirname(sys.argv[1])
canvas = manifest["canvas"]
floor = 2_000_000 * canvas["width"] * canvas["height"] / (720 * 1280)
items = [item for story in manifest["stories"] for item in story["items"]]
clips = {item["src"] for item in items}
clip_bytes = sum(os.path.getsize(os.path.join(root, src)) for src in clips)
clip_seconds = sum(item["duration"] for item in items)
trans_bytes = sum(os.path.getsize(os.path.join(root, t["src"])) for t in manifest["transitions"])
trans_seconds = sum(t["duration"] for t in manifest["transitions"])
print(f"canvas {canvas['width']}x{canvas['height']}: {len(clips)} clips {clip_bytes / 1e6:.2f} MB for {clip_seconds:.1f} s "
      f"({clip_bytes * 8 / clip_seconds / 1e6:.2f} Mb/s); {len(manifest['transitions'])} transitions "
      f"{trans_bytes / 1e6:.2f} MB for {trans_seconds:.1f} s ({trans_bytes * 8 / trans_seconds / 1e6:.2f} Mb/s)")
stories = {s["id"]: s for s in manifest["stories"]}
over = 0
for t in manifest["transitions"]:
    a = stories[t["from"]]["items"][-1] if t["direction"] == "forward" else stories[t["from"]]["items"][0]
    b = stories[t["to"]]["items"][0]
    peak = max(2 * max(rates[os.path.basename(a["src"])], rates[os.path.basename(b["src"])]), floor)
    rate = os.path.getsize(os.path.join(root, t["src"])) * 8 / t["duration"]
    over += rate > peak
    print(f"  {t['from']} -> {t['to']}: {rate / 1e6:.2f} Mb/s, peak {peak / 1e6:.2f} Mb/s {'ok' if rate <= peak else 'OVER'}")
sys.exit(1 if over else 0)
PY
rm -f build/reel-clips.json

echo "== storyreel thumbnail --out-dir $DEMO/posters (every story clip)"
mkdir -p "$DEMO/posters" "$DEMO/transitions"
find samples/stories -type f \( -iname '*.mov' -o -iname '*.mp4' -o -iname '*.m4v' \) | sort \
    | xargs "$BIN" thumbnail --out-dir "$DEMO/posters"

echo "== the bundle's cube transitions (rendered once, by render above)"
python3 - build/reel/manifest.json <<'PY'
import json, sys
for t in json.load(open(sys.argv[1]))["transitions"]:
    print(f"  {t['from']} -> {t['to']} ({t['direction']}): build/reel/{t['src']}")
PY

echo "== storyreel cube on one pair: the first two stories, backward (a direction the bundle lacks)"
# Backward joins the first frames of both stories' first clips; render made only forward ones.
read -r from to a b < <(python3 - build/reel/manifest.json <<'PY'
import json, sys
stories = json.load(open(sys.argv[1]))["stories"]
s, t = stories[0], stories[1]
print(t["id"], s["id"], "build/reel/" + t["items"][0]["src"], "build/reel/" + s["items"][0]["src"])
PY
)
"$BIN" cube "$a" "$b" --direction backward --size 1080x1920 --force -o "$DEMO/transitions/$from-to-$to.mp4" \
    --filmstrip "$DEMO/transitions/$from-to-$to.png"
echo "$DEMO/transitions/$from-to-$to.mp4 (+ .png filmstrip)"

echo
echo "manifest: build/reel/manifest.json"
echo "the player page: open build/reel/index.html"
exit "$status"
