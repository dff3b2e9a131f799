#!/usr/bin/env bash
# Makes the app's icons (Public/icons/*.png) from the favicon (Public/favicon.svg): the icons an
# installed Sangha shows on a phone's home screen and in its task switcher, as the web app
# manifest and the layout name them. Run it again (`make icons`) after changing the favicon,
# and commit the outputs. Needs Debian's librsvg2-bin (rsvg-convert).
#   icon-192.png, icon-512.png   the favicon on the page's background, with a margin
#   icon-maskable-512.png        the same, smaller, so any mask a launcher cuts (a circle, a
#                                squircle) keeps all of it: within the middle 80 % (the safe zone)
#   apple-touch-icon.png         180 × 180, full bleed (iOS rounds the corners itself)
# Usage: scripts/make-icons.sh [OUTPUT-DIRECTORY]   (default: Public/icons)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
output=$(realpath -m "${1:-$root/Public/icons}")
mkdir -p "$output"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
background="#f7f5f0" # --bg of Public/css/sangha.css

# The favicon's drawing (its 32 × 32 viewBox), scaled to `scale` of a 512 square on the background.
icon() {
  local scale=$1 file=$2
  local inner
  inner=$(sed -e 's/^<svg[^>]*>//' -e 's/<\/svg>$//' "$root/Public/favicon.svg")
  local size offset
  size=$(awk -v s="$scale" 'BEGIN { print 512 * s / 32 }')
  offset=$(awk -v s="$scale" 'BEGIN { print 512 * (1 - s) / 2 }')
  cat >"$file" <<SVG
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
<rect width="512" height="512" fill="$background"/>
<g transform="translate($offset $offset) scale($size)">$inner</g>
</svg>
SVG
}

icon 0.8 "$scratch/icon.svg"
icon 0.6 "$scratch/maskable.svg"
rsvg-convert -w 192 -h 192 "$scratch/icon.svg" -o "$output/icon-192.png"
rsvg-convert -w 512 -h 512 "$scratch/icon.svg" -o "$output/icon-512.png"
rsvg-convert -w 512 -h 512 "$scratch/maskable.svg" -o "$output/icon-maskable-512.png"
rsvg-convert -w 180 -h 180 "$scratch/icon.svg" -o "$output/apple-touch-icon.png"
echo "Wrote $(ls "$output" | tr '\n' ' ')to $output"
