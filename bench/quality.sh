#!/usr/bin/env bash
# Bench: the quality a transition keeps under its peak. For the demo's three forward transitions
# (the last clip of each story to the first of the next, in play order), at the 540x960 canvas the
# samples render at and at 1080x1920: the lossless render (`cube --frames-dir`, RGB PNG), CRF 20 and
# CRF 23 encodes without a peak (`--max-bitrate 200M`, the highest, is far above any of these turns:
# one pass, byte for byte plain CRF), and the default encode (CRF 23 under the peak rule). Each clip is decoded
# to RGB the way the tests do (bicubic, accurate rounding, full chroma) and compared with the
# lossless frames by ffmpeg's psnr filter. Targets: the default stays within 1.5 dB of CRF 20, and
# its average bit rate (the whole file's bytes x 8 / 0.5 s) stays under the peak `cube` reports.
source "$(dirname "$0")/lib.sh"
S="$ROOT/samples/stories"
Q="$WORK/quality"
mkdir -p "$Q"

# rgb_psnr CLIP FRAMES_DIR: the clip's average RGB PSNR against the lossless frames.
rgb_psnr() {
    frames_psnr "$1" "$2" "[0:v]scale=flags=bicubic+accurate_rnd+full_chroma_int,format=gbrp[a];[1:v]format=gbrp[b]"
}

echo "quality under the peak (PSNR vs the lossless render; default = CRF 23 capped by the peak rule):"
printf '  %-20s %-9s %9s %8s %8s %8s %6s %6s %6s %6s  %s\n' transition canvas "peak" "CRF20 B" "CRF23 B" \
    "dflt B" "CRF20" "CRF23" "dflt" "CRF" "targets (B: video bytes; dB: RGB PSNR; Mb/s: whole file)"
for size in 540x960 1080x1920; do
    for pair in "${DEMO_PAIRS[@]}"; do
        read -r from to <<<"$pair"
        name="$(dirname "$from")-to-$(dirname "$to")"
        base="$Q/$name-$size"
        rm -rf "$base-frames"
        "$BIN" cube "$S/$from" "$S/$to" --force --size "$size" --frames-dir "$base-frames" -q
        "$BIN" cube "$S/$from" "$S/$to" --force --size "$size" --crf 20 --max-bitrate 200M -o "$base-crf20.mp4" -q
        "$BIN" cube "$S/$from" "$S/$to" --force --size "$size" --max-bitrate 200M -o "$base-crf23.mp4" -q
        note=$("$BIN" cube "$S/$from" "$S/$to" --force --size "$size" -o "$base-default.mp4" 2>&1 | grep 'peak of')
        python3 - "$name" "$size" "$note" "$(video_bytes "$base-crf20.mp4")" "$(video_bytes "$base-crf23.mp4")" \
            "$(video_bytes "$base-default.mp4")" "$(rgb_psnr "$base-crf20.mp4" "$base-frames")" \
            "$(rgb_psnr "$base-crf23.mp4" "$base-frames")" "$(rgb_psnr "$base-default.mp4" "$base-frames")" \
            "$(stat -c %s "$base-default.mp4")" <<'PY' | report_targets
import re, sys
name, size, note, bytes20, plain23, bytes23, psnr20, plain, psnr23, file23 = sys.argv[1:]
peak = float(re.search(r"peak of ([\d.]+) Mb/s", note).group(1)) * 1e6
crf = re.search(r"CRF ([\d.]+)", note)
rate = int(file23) * 8 / 0.5
loss = float(psnr20) - float(psnr23)
under = "✓" if rate <= peak else "✗"
close = "✓" if loss <= 1.5 else "✗"
print(f"  {name:20s} {size:9s} {peak / 1e6:4.2f} Mb/s {int(bytes20):8d} {int(plain23):8d} {int(bytes23):8d} "
      f"{float(psnr20):6.2f} {float(plain):6.2f} {float(psnr23):6.2f} {crf.group(1) if crf else '51+':>6s}  "
      f"{rate / 1e6:.2f} Mb/s <= peak {under}, {loss:.2f} dB under CRF 20 (<= 1.5) {close}")
print(f"TARGET\tquality {name} {size}: rate\t{rate / 1e6:.2f} Mb/s\t≤ peak {peak / 1e6:.2f} Mb/s\t{int(rate <= peak)}")
print(f"TARGET\tquality {name} {size}: PSNR\t{loss:.2f} dB under CRF 20\t≤ 1.5 dB\t{int(loss <= 1.5)}")
PY
    done
done
