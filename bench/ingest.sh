#!/usr/bin/env bash
# Bench: `storyreel ingest` of one large upload into a new story, against its floor: the same
# bytes copied and flushed to disk (`cp`, then `sync` on the file), as ingest writes a clip
# durably. The upload is 4 s of 1080x1920 noise at CRF 8 (about 280 MB), so copying dominates.
# Then many small uploads in one call (a camera roll): a clip's cost must not grow with how many
# came before it, so 1000 uploads are timed against 100 in the same run.
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

# 1000 distinct uploads of one size (one 1 s 180x320 clip, a comment in it made unique), the
# case where every upload is compared with the story's clips (a scale QA pass: quadratic, 21 s
# for 1000 and 191 s for 3000 before it was fixed).
BULK="$WORK/ingest-bulk"
rm -rf "$BULK" && mkdir -p "$BULK/up"
ffmpeg -v error -y -f lavfi -i testsrc2=s=180x320:r=30 -t 1 -metadata comment=PLACEHOLDER-0123456789abcdef-0123 \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$BULK/base.mp4"
python3 - "$BULK" <<'PY'
import sys
folder = sys.argv[1]
data, mark = open(f"{folder}/base.mp4", "rb").read(), b"PLACEHOLDER-0123456789abcdef-0123"
assert data.count(mark) == 1, "the comment is in the file once"
for index in range(1000):
    with open(f"{folder}/up/{index:04d}.mp4", "wb") as file:
        file.write(data.replace(mark, f"{index:033d}".encode()))
PY
echo "ingest: 1000 uploads of $(stat -c %s "$BULK/base.mp4") bytes in one call, and 100"
compare ingest-bulk 5 \
    "rm -rf $BULK/s && mkdir $BULK/s && $BIN ingest $BULK/up/*.mp4 --story bulk --into $BULK/s >/dev/null" \
    "100 uploads" "rm -rf $BULK/s && mkdir $BULK/s && $BIN ingest $BULK/up/00*.mp4 --story bulk --into $BULK/s >/dev/null"
python3 - "$WORK/ingest-bulk.json" <<'PY' | report_targets
import json, sys
thousand, hundred = (result["mean"] for result in json.load(open(sys.argv[1]))["results"])
ratio = (thousand / 1000) / (hundred / 100)
print(f"  per upload: {thousand:.2f} ms at 1000, {hundred * 10:.2f} ms at 100")
print(f"TARGET\tingest, 1000 uploads in one call, per upload vs 100 uploads'\t{ratio:.2f}x\t≤ 1.5×\t"
      f"{int(ratio <= 1.5)}")
PY
rm -rf "$BULK"
