#!/usr/bin/env bash
# Bench: `storyreel ingest` of one large upload into a new story, against its floor: the same
# bytes copied and flushed to disk (`cp`, then `sync` on the file), as ingest writes a clip
# durably. The upload is 4 s of 1080x1920 noise at CRF 8 (about 280 MB), so copying dominates.
source "$(dirname "$0")/lib.sh"
UPLOAD="$WORK/ingest-upload.mp4"
STORIES="$WORK/ingest-stories"
PEER="$WORK/ingest-peer"
rm -rf "$STORIES" "$PEER" && mkdir -p "$STORIES" "$PEER"
ffmpeg -v error -y -f lavfi -i testsrc2=s=1080x1920:r=30 -t 4 -vf noise=alls=60:allf=t \
    -c:v libx264 -preset ultrafast -crf 8 -pix_fmt yuv420p "$UPLOAD"
echo "ingest: one upload of $(( $(stat -c %s "$UPLOAD") / 1000000 )) MB"
compare ingest 10 \
    "rm -rf $STORIES/new && $BIN ingest $UPLOAD --story new --into $STORIES" \
    "cp + sync" "rm -f $PEER/upload.mp4 && cp $UPLOAD $PEER/upload.mp4 && sync $PEER/upload.mp4"
python3 - "$WORK/ingest.json" <<'PY' | report_targets
import json, sys
ours, floor = (result["mean"] for result in json.load(open(sys.argv[1]))["results"])
print(f"TARGET\tingest, one 280 MB upload, vs cp + sync (the floor)\t{ours / floor:.2f}x its time\t≤ 1.5×\t"
      f"{int(ours <= 1.5 * floor)}")
PY
rm -rf "$STORIES" "$PEER" "$UPLOAD"
