#!/usr/bin/env bash
# H.264 against HEVC for the demo's three forward transitions, at 540x960 and 1080x1920: the
# HEVC table of docs/cube.md (**HEVC**). Not part of `make bench` (x265 takes 5-7x
# x264's CPU); run it alone, after `make static`:
#   STORYREEL_BIN=$PWD/.build/static/release/storyreel bash bench/hevc.sh
# For each pair: the lossless render (`cube --frames-dir`), H.264 and HEVC at `--crf 23` without a
# peak (`--max-bitrate 200M`: plain CRF, one pass), and both at the default peak rule. Bytes are the
# video packets'; PSNR is ffmpeg's average over the Y, U and V planes against the lossless frames
# converted to yuv420p by libswscale (BT.709, limited range, bicubic with accurate rounding).
source "$(dirname "$0")/lib.sh"
S="$ROOT/samples/stories"
H="$WORK/hevc"
mkdir -p "$H"

# yuv_psnr CLIP FRAMES_DIR: the clip's average YUV PSNR against the lossless frames.
yuv_psnr() {
    frames_psnr "$1" "$2" \
        "[0:v]format=yuv420p[a];[1:v]scale=out_color_matrix=bt709:out_range=tv:flags=bicubic+accurate_rnd+full_chroma_int,format=yuv420p[b]"
}

echo "$("$BIN" --version), $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '| %s | %s | %s | %s |\n' "transition, canvas" "H.264 CRF 23" "HEVC at \`--crf 23\` (x265 27)" \
    "under the rule's peak: H.264 → HEVC"
for size in 540x960 1080x1920; do
    for pair in "${DEMO_PAIRS[@]}"; do
        read -r from to <<<"$pair"
        name="$(dirname "$from") → $(dirname "$to"), ${size/x/×}"
        base="$H/$(dirname "$from")-$(dirname "$to")-$size"
        rm -rf "$base-frames"
        "$BIN" cube "$S/$from" "$S/$to" --force --size "$size" --frames-dir "$base-frames" -q
        declare -A bytes=() psnr=() passes=()
        for codec in h264 hevc; do
            "$BIN" cube "$S/$from" "$S/$to" --force --size "$size" --codec "$codec" --max-bitrate 200M \
                -o "$base-$codec-crf23.mp4" -q
            note=$("$BIN" cube "$S/$from" "$S/$to" --force --size "$size" --codec "$codec" \
                -o "$base-$codec-peak.mp4" 2>&1 | grep 'peak of' || true)
            bytes[$codec]=$(video_bytes "$base-$codec-crf23.mp4")
            psnr[$codec]=$(yuv_psnr "$base-$codec-crf23.mp4" "$base-frames")
            psnr[$codec-peak]=$(yuv_psnr "$base-$codec-peak.mp4" "$base-frames")
            passes[$codec]=$(sed -n 's/.*, \([0-9]*\) pass.*/\1/p' <<<"$note")
        done
        python3 - "$name" "${bytes[h264]}" "${psnr[h264]}" "${bytes[hevc]}" "${psnr[hevc]}" \
            "${psnr[h264-peak]}" "${psnr[hevc-peak]}" "${passes[h264]}" "${passes[hevc]}" <<'PY'
import sys
name, b264, p264, b265, p265, cap264, cap265, passes264, passes265 = sys.argv[1:]
saving = 100 * (int(b265) - int(b264)) / int(b264)
binding = "(not binding)" if passes264 == passes265 == "1" else \
    f"{float(cap264):.2f} → {float(cap265):.2f} dB" + (" (HEVC fits at CRF 27)" if passes265 == "1" else "")
print(f"| {name} | {b264} B, {float(p264):.2f} dB | {b265} B ({saving:+.0f}%), {float(p265):.2f} dB | {binding} |"
      .replace("+-", "−").replace("(-", "(−"))
PY
    done
done
