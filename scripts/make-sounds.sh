#!/usr/bin/env bash
# Makes the catalogue's sounds (Public/sounds/NAME.mp3) from nothing but sox's synthesizer:
# each is a few partials of sine waves, mixed to mono, shaped by a fade, normalized and
# encoded as MP3 (which Chromium, Firefox and Safari all play). The parameters below are the
# whole source; run this again (`make sounds`) after changing them, and commit the outputs.
# Needs Debian's sox and libsox-fmt-mp3. -R makes the noise repeatable, so the same parameters
# give the same bytes (make test rebuilds them into a temporary folder and compares).
# Usage: scripts/make-sounds.sh [OUTPUT-DIRECTORY]   (default: Public/sounds)
set -euo pipefail
output=$(realpath -m "${1:-$(dirname "$0")/../Public/sounds}")
mkdir -p "$output"
cd "$output"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# name, seconds, fade-out type (sox fade: l logarithmic, q quarter sine, t linear), partials…
make_sound() {
  local name=$1 seconds=$2 fade=$3; shift 3
  local tones=("$@")
  local synth=()
  for tone in "${tones[@]}"; do synth+=($tone); done
  sox -R -r 44100 -c "${#tones[@]}" -n -c 1 -b 16 "$scratch/$name.wav" \
    synth "$seconds" "${synth[@]}" remix - fade "$fade" 0.004 "$seconds" "$(awk -v s="$seconds" 'BEGIN { print s - 0.01 }')" \
    gain -n -3
  sox -R "$scratch/$name.wav" -C 48 "$name.mp3"
}

# A bell: a bright fundamental with the inharmonic partials of a struck bell.
make_sound bell 3 l "sine 660" "sine 1320" "sine 1822" "sine 3564"
# A singing bowl: low and long, two close partials that beat slowly.
make_sound bowl 4 l "sine 220" "sine 222.5" "sine 587" "sine 1108"
# A gong: deep, with a noisy shimmer that fades with it.
make_sound gong 4 l "sine 98" "sine 147" "sine 233" "pinknoise"
# A chime: high, clear partials, a shorter ring.
make_sound chime 2.5 l "sine 1568" "sine 2093" "sine 3136"
# A wood block: a short knock of a few hundred milliseconds.
make_sound wood-block 0.4 t "sine 880" "sine 1320" "brownnoise"

ls -l ./*.mp3
