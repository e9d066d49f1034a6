#!/usr/bin/env bash
# Bench: `storyreel thumbnail --out-dir` (smart pick, 360 px wide JPEG) over 20 portrait 1080x1920
# clips, against a loop of ffmpegthumbnailer (its own smart pick) and a loop of the ffmpeg CLI
# (one frame at 10 %, no pick). Half the clips are H.264 (GOP 60), half iPhone-like HEVC: stored
# 1920x1080 with a 90° display matrix, 10-bit HLG BT.2020, GOP 30, so they need the turn and
# the tone mapping.
source "$(dirname "$0")/lib.sh"
CLIPS="$WORK/thumb-clips"
mkdir -p "$CLIPS"

# Detailed, moving content (temporal noise on top) so decoding costs what real footage does, at
# phone bit rates (H.264 up to 16 Mb/s, HEVC up to 12 Mb/s).
SOURCES=(
    "testsrc2=s=SIZE:r=30"
    "mandelbrot=s=SIZE:r=30:maxiter=256:start_scale=2:end_scale=0.3"
    "gradients=s=SIZE:r=30:n=5:speed=0.05:seed=SEED"
    "cellauto=s=SIZE:r=30:rule=30:random_fill_ratio=0.5:seed=SEED"
    "life=s=SIZE:r=30:ratio=0.4:mold=10:seed=SEED"
)
for i in $(seq 1 20); do
    n=$(printf %02d "$i")
    source_graph="${SOURCES[$(( (i - 1) % ${#SOURCES[@]} ))]}"
    duration=$(( 3 + i % 2 ))
    if (( i % 2 )); then
        out="$CLIPS/clip$n.mp4"
        [ -f "$out" ] && continue
        graph="${source_graph/SIZE/1080x1920}"
        graph="${graph/SEED/$i},trim=duration=$duration,noise=alls=8:allf=t+u:all_seed=$i"
        ffmpeg -v error -y -f lavfi -i "$graph" -vf "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p" \
            -c:v libx264 -preset veryfast -crf 23 -maxrate 16M -bufsize 32M -g 60 \
            -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv "$out"
    else
        out="$CLIPS/IMG_$n.MOV"
        [ -f "$out" ] && continue
        graph="${source_graph/SIZE/1920x1080}"
        graph="${graph/SEED/$i},trim=duration=$duration,noise=alls=8:allf=t+u:all_seed=$i"
        ffmpeg -v error -y -f lavfi -i "$graph" \
            -vf "scale=out_color_matrix=bt2020:out_range=tv,format=yuv420p10le" \
            -c:v libx265 -preset superfast -crf 24 -maxrate 12M -bufsize 24M -g 30 -tag:v hvc1 \
            -x265-params "log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc:range=limited" \
            -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc -color_range tv \
            -f mov "$WORK/thumb-rotating.mov"
        ffmpeg -v error -y -i "$WORK/thumb-rotating.mov" -c copy -tag:v hvc1 -metadata:s:v:0 rotate=270 -f mov "$out"
        rm -f "$WORK/thumb-rotating.mov"
    fi
done

OUT="$WORK/thumb-out"
rm -rf "$OUT" && mkdir -p "$OUT/storyreel" "$OUT/ffmpegthumbnailer" "$OUT/ffmpeg"
THUMBNAILER_LOOP="for f in $CLIPS/*; do"
THUMBNAILER_LOOP+=" ffmpegthumbnailer -i \"\$f\" -o $OUT/ffmpegthumbnailer/\$(basename \"\$f\").jpg -s 360; done"
FFMPEG_LOOP="for f in $CLIPS/*; do ffmpeg -v error -y -ss 0.3 -i \"\$f\" -frames:v 1 -vf scale=360:-2"
FFMPEG_LOOP+=" $OUT/ffmpeg/\$(basename \"\$f\").jpg; done"
compare thumbnail 5 "$BIN thumbnail --out-dir $OUT/storyreel --width 360 $CLIPS/*" \
    "ffmpegthumbnailer loop" "$THUMBNAILER_LOOP" \
    "ffmpeg loop" "$FFMPEG_LOOP"
speedup_target thumbnail 1 3 "thumbnail, 20 clips, vs ffmpegthumbnailer loop"
