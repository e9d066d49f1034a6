#!/usr/bin/env bash
# Regenerates every sample clip in samples/ from FFmpeg's lavfi sources.
#
#   samples/make-samples.sh        (runs from any cwd)
#
# Requires ffmpeg/ffprobe (tested with 5.1, Debian) built with libx264 and
# libx265. Everything is synthetic, so the output is reproducible:
# single-threaded encoders, fixed noise seeds, bit-exact muxing and no
# metadata, so two runs with the same FFmpeg build give byte-identical files.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

FF=(ffmpeg -v error -y -nostdin)
# Bit-exact output, no metadata (creation times, encoder strings) copied.
BITEXACT=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1)
# rgb lavfi sources -> limited-range BT.709 4:2:0, tagged as such.
TO_709="scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"
TAG_709=(-color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv)
X264=(-c:v libx264 -preset medium -profile:v high -pix_fmt yuv420p -threads 1)
AAC=(-c:a aac -b:a 96k -ar 48000 -ac 2)

TOP_LEVEL=(portrait-h264.mp4 iphone-hevc-hdr.mov black-intro.mp4 sixty-fps.mp4 edit-list.mp4)

# --- start from scratch ------------------------------------------------------
rm -f -- "${TOP_LEVEL[@]}"
rm -rf -- stories
TMP="$(mktemp -d)"
trap 'rm -rf -- "$TMP"' EXIT

# [CRF=n] sdr_clip OUT DURATION VIDEO_GRAPH [AUDIO_GRAPH] [extra encoder args...]
# Portrait H.264 (High, yuv420p, BT.709 limited) with optional AAC stereo.
sdr_clip() {
  local out="$1" dur="$2" video="$3" audio="${4:-}"
  shift 4 || shift $#
  local inputs=(-f lavfi -i "$video") maps=(-map 0:v:0) acodec=(-an)
  if [[ -n "$audio" ]]; then
    inputs+=(-f lavfi -i "$audio")
    maps+=(-map 1:a:0)
    acodec=("${AAC[@]}")
  fi
  local fmt=mp4
  [[ "${out,,}" == *.mov ]] && fmt=mov
  "${FF[@]}" "${inputs[@]}" "${maps[@]}" -t "$dur" \
    -vf "$TO_709" "${X264[@]}" -crf "${CRF:-26}" -g 30 "${TAG_709[@]}" "$@" \
    "${acodec[@]}" "${BITEXACT[@]}" -movflags +faststart -f "$fmt" "$out"
}

# --- 1. portrait-h264.mp4: 720x1280 H.264 High 30 fps 3 s + AAC stereo -------
CRF=28 sdr_clip portrait-h264.mp4 3 \
  "testsrc2=s=720x1280:r=30:d=3" \
  "sine=f=440:beep_factor=4:sample_rate=48000:d=3"

# --- 2. iphone-hevc-hdr.mov: HEVC Main10 HLG, landscape + 90 deg rotation ----
# Stored 1280x720 like an iPhone; the display matrix turns it portrait.
# Full-swing testsrc2 (black .. peak white) in 10-bit BT.2020, tagged HLG.
"${FF[@]}" -f lavfi -i "testsrc2=s=1280x720:r=30:d=2" \
  -f lavfi -i "anoisesrc=c=pink:r=48000:a=0.1:seed=2020:d=2" \
  -map 0:v:0 -map 1:a:0 -t 2 \
  -vf "scale=out_color_matrix=bt2020:out_range=tv,format=yuv420p10le" \
  -c:v libx265 -preset fast -profile:v main10 -pix_fmt yuv420p10le -crf 28 -g 30 \
  -x265-params "pools=1:frame-threads=1:log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc:range=limited" \
  -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc -color_range tv \
  -tag:v hvc1 "${AAC[@]}" "${BITEXACT[@]}" -f mov "$TMP/hevc.mov"
# Second pass: stream copy, adding the iPhone's rotation (display matrix -90).
"${FF[@]}" -i "$TMP/hevc.mov" -map 0 -c copy -tag:v hvc1 \
  -metadata:s:v:0 rotate=270 "${BITEXACT[@]}" -f mov iphone-hevc-hdr.mov

# --- 3. black-intro.mp4: 1 s pure black, then 2 s bright content ------------
sdr_clip black-intro.mp4 3 \
  "color=c=black:s=540x960:r=30:d=1[k];testsrc2=s=540x960:r=30:d=2,hue=h=30:b=1[c];[k][c]concat=n=2:v=1:a=0" \
  "" -g 15

# --- 4. sixty-fps.mp4: 540x960 60 fps 2 s ------------------------------------
sdr_clip sixty-fps.mp4 2 "testsrc2=s=540x960:r=60:d=2,hue=h=200" "" -g 60

# --- 5. edit-list.mp4: mid-GOP stream-copy cut -> mov edit list -------------
# Source: keyframe exactly once a second; cutting at 1.4 s keeps the packets
# from the 1.0 s keyframe as discarded (pre-roll) samples behind an edit list.
# No B-frames, so the -t cut (which stream copy makes in decode order) ends
# cleanly on the last displayed frame instead of dropping a reordered frame.
sdr_clip "$TMP/editsrc.mp4" 3 "testsrc2=s=540x960:r=30:d=3,hue=h=300" "" \
  -bf 0 -x264-params keyint=30:min-keyint=30:scenecut=0
"${FF[@]}" -ss 1.4 -i "$TMP/editsrc.mp4" -t 1.2 -c copy "${BITEXACT[@]}" edit-list.mp4
rm -f -- "$TMP/editsrc.mp4"

# --- stories/<handle>/: 4 users, 9 clips, avatars, story.json ---------------
mkdir -p stories/ana.lima stories/ben_k stories/chloe stories/dev-ops

# ana.lima: iPhone-style names, both with audio.
sdr_clip stories/ana.lima/IMG_0001.MOV 2 \
  "testsrc2=s=540x960:r=30:d=2,hue=h=110:s=1.3" \
  "sine=f=523.25:sample_rate=48000:d=2"
CRF=30 sdr_clip stories/ana.lima/IMG_0002.MOV 2.5 \
  "mandelbrot=s=540x960:r=30:maxiter=400:start_scale=2.5:end_scale=0.4:outer=normalized_iteration_count" \
  "anoisesrc=c=pink:r=48000:a=0.15:seed=11:d=2.5"

# ben_k: 1, 2, 10 -> natural sort matters ("10" after "2").
sdr_clip stories/ben_k/1.mp4 1.5 \
  "smptebars=s=540x960:r=30:d=1.5,hue=H=2*PI*t/1.5" \
  "sine=f=330:sample_rate=48000:d=1.5"
CRF=30 sdr_clip stories/ben_k/2.mp4 2 \
  "life=s=54x96:r=10:ratio=0.3:seed=4242:life_color=#40ff90:death_color=#100028,fps=30,scale=540:960:flags=neighbor"
sdr_clip stories/ben_k/10.mp4 2.5 \
  "cellauto=s=135x240:r=30:rule=110:seed=7:random_fill_ratio=0.5:scroll=1:start_full=1,format=rgb24,lutrgb=r='if(val,255,40)':g='if(val,150,0)':b='if(val,0,70)',scale=540:960:flags=neighbor" \
  "sine=f=880:beep_factor=2:sample_rate=48000:d=2.5"

# chloe: one with audio, one without.
sdr_clip stories/chloe/morning.mp4 2 \
  "gradients=s=540x960:r=30:d=2:n=3:c0=#ff5e3a:c1=#ffd23f:c2=#2ec4b6:x0=0:y0=0:x1=540:y1=960:speed=0.05:seed=3,drawgrid=w=54:h=64:t=3:c=white@0.7,drawbox=x=170:y=380:w=200:h=200:c=#102040:t=fill" \
  "anoisesrc=c=brown:r=48000:a=0.2:seed=99:d=2"
CRF=30 sdr_clip stories/chloe/night.mp4 1.5 \
  "sierpinski=s=270x480:r=30:type=carpet:seed=8:jump=20,scale=540:960:flags=neighbor,format=rgb24,lutrgb=r='if(gt(val,128),255,20)':g='if(gt(val,128),190,30)':b='if(gt(val,128),40,90)'"

# dev-ops: no audio, lowercase .mov container.
sdr_clip stories/dev-ops/deploy.mov 2 \
  "nullsrc=s=540x960:r=30:d=2,format=gbrp,geq=r='128+127*sin(X/17+T*4)':g='128+127*sin(Y/23-T*3)':b='128+127*sin((X+Y)/31+T)'"
sdr_clip stories/dev-ops/standup.mov 2.5 \
  "testsrc=s=540x960:r=30:d=2.5,hue=h=160:s=1.5"

# Avatars: 256x256 JPEG, one distinct colour/pattern per user.
avatar() {
  "${FF[@]}" -f lavfi -i "$2" -frames:v 1 -vf "scale=256:256,format=yuvj420p" \
    -c:v mjpeg -q:v 4 "${BITEXACT[@]}" -f image2 -update 1 "$1"
}
avatar stories/ana.lima/avatar.jpg \
  "gradients=s=256x256:c0=#ff4f8b:c1=#ffb347:x0=0:y0=0:x1=256:y1=256:seed=1,drawgrid=w=32:h=32:t=2:c=white@0.5"
avatar stories/ben_k/avatar.jpg \
  "mandelbrot=s=256x256:maxiter=300:start_scale=1.5:outer=normalized_iteration_count,hue=h=180"
avatar stories/chloe/avatar.jpg \
  "smptehdbars=s=256x256,hue=h=90"
avatar stories/dev-ops/avatar.jpg \
  "life=s=64x64:ratio=0.4:seed=5:life_color=#00ff66:death_color=#001a0d,scale=256:256:flags=neighbor"

printf '%s\n' '{"displayName": "Ana Lima"}' > stories/ana.lima/story.json
printf '%s\n' '{"displayName": "Dev Ops", "isRead": true}' > stories/dev-ops/story.json

# --- sanity checks -----------------------------------------------------------
probe() { ffprobe -v error "$@"; }

rot="$(probe -select_streams v:0 -show_entries stream_side_data=rotation -of default=nw=1:nk=1 iphone-hevc-hdr.mov | head -n1)"
trc="$(probe -select_streams v:0 -show_entries stream=color_transfer -of default=nw=1:nk=1 iphone-hevc-hdr.mov | head -n1)"
[[ "$rot" == "-90" ]] || { echo "iphone-hevc-hdr.mov: rotation is '$rot', expected -90" >&2; exit 1; }
[[ "$trc" == "arib-std-b67" ]] || { echo "iphone-hevc-hdr.mov: transfer is '$trc'" >&2; exit 1; }

npk="$(probe -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of default=nw=1:nk=1 edit-list.mp4 | head -n1)"
nfr="$(probe -select_streams v:0 -count_frames -show_entries stream=nb_read_frames -of default=nw=1:nk=1 edit-list.mp4 | head -n1)"
(( npk > nfr )) || { echo "edit-list.mp4: expected discarded packets (packets=$npk frames=$nfr)" >&2; exit 1; }

# --- report ------------------------------------------------------------------
echo "Generated in $(pwd):"
find . -type f ! -name 'make-samples.sh' | LC_ALL=C sort | while read -r f; do
  printf '  %8s  %s\n' "$(du -h --apparent-size "$f" | cut -f1)" "${f#./}"
done
echo "edit-list.mp4: $npk packets, $nfr displayed frames"
echo "Total: $(du -sh --apparent-size . | cut -f1)"
