#!/usr/bin/env bash
# Makes the film fixtures of the local service (test/service/fixtures/film): short clips the service can hand out as a
# task's video (scenario `video.clips`), so the explainer film's join is tested on real files. Run once, commit the
# result (CI has no ffmpeg). Needs ffmpeg with libx264 and the DejaVu fonts (Debian: ffmpeg, fonts-dejavu-core).
#
# shot-a, shot-b, shot-c: the same settings, so they join by remuxing: H.264 Main (x264, the same options, so the same
#   SPS/PPS), 320x180, 24 fps, yuv420p, with B-frames; mono AAC-LC 44.1 kHz. 1 s, 1.5 s and 2 s, each its own picture.
# shot-portrait: the same settings at 180x320 (a portrait shot): not joinable with the others.
# shot-high: 320x180 at 30 fps, H.264 High: another SPS, not joinable with the others.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/test/service/fixtures/film"
mkdir -p "$out"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf

# clip <name> <seconds> <size> <fps> <profile> <source filter> <label>
clip() {
  local name=$1 seconds=$2 size=$3 fps=$4 profile=$5 source=$6 label=$7
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "${source}=size=${size}:rate=${fps}:duration=${seconds}" \
    -f lavfi -i "sine=frequency=330:sample_rate=44100:duration=${seconds}" \
    -vf "drawtext=fontfile=${font}:text='${label}':fontsize=20:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=5:x=(w-text_w)/2:y=h-text_h-12" \
    -c:v libx264 -preset veryslow -crf 34 -pix_fmt yuv420p -profile:v "$profile" -bf 2 -g 48 -x264-params no-scenecut=1 \
    -c:a aac -b:a 32k -ac 1 -shortest \
    -movflags +faststart -map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact \
    "$out/$name.mp4"
}

clip shot-a 1 320x180 24 main testsrc2 'Shot A'
clip shot-b 1.5 320x180 24 main "testsrc" 'Shot B'
clip shot-c 2 320x180 24 main "smptebars" 'Shot C'
clip shot-portrait 1 180x320 24 main testsrc2 'Portrait'
clip shot-high 1 320x180 30 high testsrc2 'High'
