#!/usr/bin/env bash
# The same-work peer of `storyreel cube --shade 0`: a true-perspective cube turn made with the
# ffmpeg CLI alone, one ffmpeg process. Usage: ffmpeg-cube.sh FROM TO OUT [WxH [FPS [DURATION]]]
# (defaults 1080x1920, 30, 0.5; PERSPECTIVE=2.667 in the environment is the camera distance as a
# multiple of the width). The encoder settings are storyreel's: STORYREEL_X264 from lib.sh.
# With a seventh argument, MAX_BITRATE in bits per second, the clip is held under that average as
# storyreel holds a transition under its peak: the frames are rendered once to a raw yuv420p file,
# encoded at CRF 23 and, while over the cap, encoded again at the CRFs that storyreel's
# RateFactorSearch picks (bench/rate-factor-search.py, the same rule); the biggest pass that fits
# is kept.
#
# Both faces are scaled to fill the canvas and centre-cropped (as storyreel fits them), in gbrp:
# FROM's last frame (-sseof: ffmpeg decodes from the keyframe before the seek point, as storyreel
# decodes FROM's last group of pictures) and TO's first, each looped for N = round(duration × fps)
# frames. Each face gets a 4-pixel black border, so the `perspective` filter (which clamps what
# falls outside the picture to its edge pixels) draws black around the turned face, then is warped
# with `perspective=sense=destination:eval=frame`, its four corners computed per frame from
# CubeTransitionSpec's geometry, and the border is cropped off again. `blend=all_mode=lighten`
# lays the two faces together (each is black where the other is drawn).
#
# The geometry (CubeTransitionSpec, CubeFrameGeometry): frame k at t = (k+1)/(N+1), progress
# p = t²(3−2t) (smooth easing), hinge h = W(1−p), D = PERSPECTIVE·W. A point of the outgoing face
# A at depth d = W − u from its hinge edge (u its source x) turned by θA = 90°·p lands at
# x = h − d·cosθA·s, y = H/2 + (v − H/2)·s with s = D/(D + d·sinθA); the incoming face B at
# depth d = u turned by θB = 90°·(1−p) at x = h + d·cosθB·s, s = D/(D + d·sinθB). A rotated plane
# seen in perspective is a projective map, so its four corners fix the whole face. The corners
# given to the filter are those of the padded picture, in ffmpeg's convention (pixel i at
# coordinate i) where the spec puts pixel centres at i + 0.5: padded source coordinate U is face
# u = U − 3.5, and canvas x is padded destination coordinate x + 3.5.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
FROM="$1"
TO="$2"
OUT="$3"
SIZE="${4:-1080x1920}"
FPS="${5:-30}"
DURATION="${6:-0.5}"
MAX_BITRATE="${7:-}"
PERSPECTIVE="${PERSPECTIVE:-2.667}"
W="${SIZE%x*}"
H="${SIZE#*x}"
N=$(awk -v d="$DURATION" -v f="$FPS" 'BEGIN { printf "%d", d * f + 0.5 }')
D=$(awk -v p="$PERSPECTIVE" -v w="$W" 'BEGIN { printf "%.10g", p * w }')

# One corner coordinate as an ffmpeg expression of `on` (the frame number, from 1): FACE is A or
# B, AXIS x or y, U and V the corner in the padded picture (0 or its width/height).
corner() {
    local face="$1" axis="$2" u="$3" v="$4"
    # ld(1) = p, ld(2) = the face's angle, ld(3) = d, ld(4) = s.
    local e="st(0,on/($N+1));st(1,ld(0)*ld(0)*(3-2*ld(0)));"
    if [ "$face" = A ]; then
        e+="st(2,PI/2*ld(1));st(3,$W-($u-3.5));"
    else
        e+="st(2,PI/2*(1-ld(1)));st(3,$u-3.5);"
    fi
    e+="st(4,$D/($D+ld(3)*sin(ld(2))));"
    if [ "$axis" = y ]; then
        e+="$H/2+(($v-3.5)-$H/2)*ld(4)+3.5"
    elif [ "$face" = A ]; then
        e+="$W*(1-ld(1))-ld(3)*cos(ld(2))*ld(4)+3.5"
    else
        e+="$W*(1-ld(1))+ld(3)*cos(ld(2))*ld(4)+3.5"
    fi
    printf "%s" "$e"
}
# The perspective filter for one face: corners top-left, top-right, bottom-left, bottom-right.
warp() {
    local face="$1" pw=$((W + 8)) ph=$((H + 8)) args="" i=0
    for uv in "0 0" "$pw 0" "0 $ph" "$pw $ph"; do
        set -- $uv
        args+="x$i='$(corner "$face" x "$1" "$2")':y$i='$(corner "$face" y "$1" "$2")':"
        i=$((i + 1))
    done
    printf "perspective=%ssense=destination:eval=frame" "$args"
}
FACE="scale=$W:$H:force_original_aspect_ratio=increase,crop=$W:$H,setsar=1,format=gbrp"
LOOP="loop=loop=$((N - 1)):size=1,setpts=N/$FPS/TB,pad=$((W + 8)):$((H + 8)):4:4:black"
GRAPH="[0:v]reverse,trim=end_frame=1,$FACE,$LOOP,$(warp A),crop=$W:$H:4:4[a];"
GRAPH+="[1:v]trim=end_frame=1,$FACE,$LOOP,$(warp B),crop=$W:$H:4:4[b];"
GRAPH+="[a][b]blend=all_mode=lighten,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"
TAGS="-colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv -movflags +faststart"
# FROM from a quarter second before its end (reverse keeps those few frames to give the last one);
# TO from its start, its first frame only.
if [ -z "$MAX_BITRATE" ]; then
    # shellcheck disable=SC2086  # STORYREEL_X264 and TAGS are lists of options
    ffmpeg -v error -y -sseof -0.25 -i "$FROM" -i "$TO" -filter_complex "$GRAPH" -frames:v "$N" -r "$FPS" \
        $STORYREEL_X264 $TAGS "$OUT"
    exit 0
fi
PASSES="$(mktemp -d)"
trap 'rm -rf "$PASSES"' EXIT
ffmpeg -v error -y -sseof -0.25 -i "$FROM" -i "$TO" -filter_complex "$GRAPH" -frames:v "$N" -r "$FPS" \
    -f rawvideo "$PASSES/frames.yuv"
BUDGET=$(awk -v r="$MAX_BITRATE" -v n="$N" -v f="$FPS" 'BEGIN { printf "%d", r * n / f / 8 }')
SEARCH="$(dirname "${BASH_SOURCE[0]}")/rate-factor-search.py"
done_passes=()
crf=23
while [ -n "$crf" ]; do
    # shellcheck disable=SC2086  # STORYREEL_X264 and TAGS are lists of options
    ffmpeg -v error -y -f rawvideo -pix_fmt yuv420p -s "${W}x$H" -r "$FPS" -i "$PASSES/frames.yuv" \
        ${STORYREEL_X264/-crf 23/-crf $crf} $TAGS "$PASSES/pass-$crf.mp4"
    done_passes+=("$crf:$(stat -c %s "$PASSES/pass-$crf.mp4")")
    crf=$(python3 "$SEARCH" next "$BUDGET" "${done_passes[@]}")
done
mv "$PASSES/pass-$(python3 "$SEARCH" choice "$BUDGET" "${done_passes[@]}").mp4" "$OUT"
