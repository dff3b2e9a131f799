#!/usr/bin/env bash
# Instructions per request, counted by valgrind's callgrind: figures that do not drift with the
# machine's load, for the pages whose speed is watched (issue "every page at the editor's speed").
# The release server is seeded as `make bench` seeds it (a person, 50 friends, two profiles, a
# group with a weekly sit), then started again under callgrind; each page is asked WARMUP times,
# then REQUESTS times with the count on, one request at a time. Prints instructions per request.
#
#   scripts/bench-instructions.sh            # the release build in .build/release
#   BIN=path/to/sangha scripts/bench-instructions.sh
#   KEEP=dir scripts/bench-instructions.sh   # keeps each page's profile for callgrind_annotate
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release/sangha}
REQUESTS=${REQUESTS:-200}
WARMUP=${WARMUP:-50}

source scripts/common.sh

work=$(mktemp -d)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

serve() {
  "$@" serve --port "$port" --friend-service-port "$friend_port" --data-dir "$work/data" \
    --sign-up open --address-limit 0 --log-level warning 2>>"$work/serve.log" &
  pid=$!
}

port=$(free_port)
friend_port=$(free_port)
base="http://127.0.0.1:$port"
serve "$BIN"
wait_until_up "$base"
jar="$work/cookies"
cookies=$(seed "$base" "$jar")
token=$(form_token "$base/groups" "$jar")
curl -fs -b "$jar" -o /dev/null -d "name=Morning&_csrf=$token" "$base/groups"
curl -fs -b "$jar" -o /dev/null \
  -d "profile=1&startsAt=$(date -u -d '+30 days' +%Y-%m-%dT07:00)&weekly=on&_csrf=$token" "$base/groups/1/sits"
feed=$(curl -fs -b "$jar" -d "_csrf=$token" "$base/settings/calendar" | grep -o 'http://[^"]*/calendar/[0-9a-f]*\.ics' | head -1)
feed=${feed#http://*/}
kill "$pid"
wait "$pid" 2>/dev/null || true

# The same data, under callgrind; counting starts only when asked.
serve valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/callgrind.%p" "$BIN"
for _ in $(seq 600); do curl -fs "$base/health" >/dev/null && break; sleep 0.2; done
curl -fs "$base/health" >/dev/null || { echo "sangha did not start under valgrind" >&2; exit 1; }

pages=(
  "GET /profiles/1 (the editor)|/profiles/1"
  "GET / (home)|/"
  "GET /history|/history"
  "GET /me|/me"
  "GET /groups/1 (a group's page)|/groups/1"
  "GET /groups/1/sits/1 (a sit's page)|/groups/1/sits/1"
  "GET the calendar feed|/$feed"
)
ask() { for _ in $(seq "$1"); do curl -fs -o /dev/null -H "Cookie: $cookies" "$base$2"; done; }

echo "# Instructions per request (callgrind, $REQUESTS requests each, release build), $(date -u +%Y-%m-%d)"
echo
echo "| page | instructions per request |"
echo "| --- | ---: |"
callgrind_control -i on "$pid" >/dev/null 2>&1
for page in "${pages[@]}"; do
  label=${page%%|*}
  path=${page#*|}
  [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $cookies" "$base$path")" = 200 ] \
    || { echo "FAILED: $label did not answer 200" >&2; exit 1; }
  ask "$WARMUP" "$path"
  callgrind_control -z "$pid" >/dev/null 2>&1
  ask "$REQUESTS" "$path"
  callgrind_control -d "$pid" >/dev/null 2>&1
  file=$(ls -t "$work"/callgrind.* | head -1)
  total=$(awk '/^summary:|^totals:/ { print $2; exit }' "$file")
  [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$file" "$KEEP/$(tr -c 'a-z0-9\n' '-' <<<"$path" | cut -c1-20).callgrind"
  printf '| %s | %s |\n' "$label" "$(awk -v t="$total" -v r="$REQUESTS" 'BEGIN { printf "%.0f", t / r }')"
done
