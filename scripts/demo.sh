#!/usr/bin/env bash
# `make demo`: storyreel's main job on samples/. Inspects the sample clips, renders the sample
# stories into build/reel, writes their posters under build/demo/posters and their forward cube
# transitions (with filmstrips) under build/demo/transitions.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${STORYREEL_BIN:-.build/release/storyreel}"
DEMO=build/demo

echo "== storyreel inspect samples/*.mp4 samples/*.mov"
"$BIN" inspect samples/*.mp4 samples/*.mov

echo "== storyreel render samples/stories -o build/reel"
status=0
"$BIN" render samples/stories -o build/reel || status=$?

echo "== storyreel thumbnail --out-dir $DEMO/posters (every story clip)"
mkdir -p "$DEMO/posters" "$DEMO/transitions"
find samples/stories -type f \( -iname '*.mov' -o -iname '*.mp4' -o -iname '*.m4v' \) | sort \
    | xargs "$BIN" thumbnail --out-dir "$DEMO/posters"

echo "== storyreel cube: forward transitions between the stories, in play order"
# The play order and each story's first and last clips, from the manifest just written.
python3 - build/reel/manifest.json <<'PY' | while read -r from to a b; do
import json, sys
manifest = json.load(open(sys.argv[1]))
stories = manifest["stories"]
for s, t in zip(stories, stories[1:]):
    print(s["id"], t["id"], "build/reel/" + s["items"][-1]["src"], "build/reel/" + t["items"][0]["src"])
PY
    "$BIN" cube "$a" "$b" --size 1080x1920 -o "$DEMO/transitions/$from-to-$to.mp4" \
        --filmstrip "$DEMO/transitions/$from-to-$to.png"
    echo "$DEMO/transitions/$from-to-$to.mp4 (+ .png filmstrip)"
done

echo
echo "manifest: build/reel/manifest.json"
exit "$status"
