#!/usr/bin/env bash
# Instructions per request, counted by valgrind's callgrind: figures that do not drift with the
# machine's load, for the pages whose speed is watched (issue "every page at the editor's speed").
# The release server is seeded as `scripts/bench.sh` seeds it (`seed_everyone`: a person with 50
# friends, two profiles and 20 groups of 5 sits, group 1 of ten members, two people with a
# practice log of a year and of three years), then started again under callgrind; each page is
# asked WARMUP times, then REQUESTS times with the count on, one request at a time on one
# kept-alive connection (as wrk sends them: a connection's setup is not a page's cost). Prints
# instructions per request, and the goals: the editor at most 500 k, home, /history and a
# group's page at most 1.5 × the editor's.
#
#   scripts/bench-instructions.sh            # the release build in .build/release
#   BIN=path/to/sangha scripts/bench-instructions.sh
#   KEEP=dir scripts/bench-instructions.sh   # keeps each page's profile for callgrind_annotate
#   ONLY='history' scripts/bench-instructions.sh  # only the pages whose label matches
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
declare -A cookie feeds
seed_everyone sqlite "$base" >/dev/null
feed=${feeds[sqlite]#http://*/}
kill "$pid"
wait "$pid" 2>/dev/null || true

# The same data, under callgrind; counting starts only when asked.
serve valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/callgrind.%p" "$BIN"
for _ in $(seq 600); do curl -fs "$base/health" >/dev/null && break; sleep 0.2; done
curl -fs "$base/health" >/dev/null || { echo "sangha did not start under valgrind" >&2; exit 1; }

pages=(
  "GET /profiles/1 (the editor)|bench|/profiles/1"
  "GET /health (the framework's floor)|bench|/health"
  "GET / (home, no sessions)|bench|/"
  "GET / (home, 1,000 sessions)|log1000|/"
  "GET / (home, a 3-year log)|log3y|/"
  "GET /history (no sessions)|bench|/history"
  "GET /history (1,000 sessions)|log1000|/history"
  "GET /history (a 3-year log)|log3y|/history"
  "GET /me (no sessions)|bench|/me"
  "GET /me (1,000 sessions)|log1000|/me"
  "GET /me (a 3-year log)|log3y|/me"
  "GET /settings|bench|/settings"
  "GET /groups (20 groups)|bench|/groups"
  "GET /groups/1 (a group's page: 5 sits, 10 members)|bench|/groups/1"
  "GET /groups/1/sits/1 (a sit's page)|bench|/groups/1/sits/1"
  "GET the calendar feed (20 groups, 100 sits)|bench|/$feed"
  "GET /admin (the people, for an administrator)|bench|/admin"
  "GET /profiles/1, in German|bench-de|/profiles/1"
  "GET /profiles/1, with a browser's Accept-Language|bench-browser|/profiles/1"
  "GET /profiles/999 (a profile not found: the 404 page)|bench|/profiles/999|404"
  "GET / (home, 1,000 sessions), in German|log1000-de|/"
  "GET /history (1,000 sessions), in German|log1000-de|/history"
)
# ask COUNT COOKIE PATH [HEADER]: COUNT requests one after another on one kept-alive connection,
# as a browser (and wrk) sends them: a connection's setup is not a page's cost.
ask() {
  local urls=()
  for _ in $(seq "$1"); do urls+=("$base$3"); done
  # A page expected to answer 200 fails the run on any other answer.
  local flags=(-s)
  [ -n "${status:-}" ] || flags+=(-f)
  curl "${flags[@]}" -H "Cookie: $2" ${4:+-H "$4"} "${urls[@]}" >/dev/null
}

echo "# Instructions per request (callgrind, $REQUESTS requests each, release build), $(date -u +%Y-%m-%d)"
echo
echo "| page | instructions per request |"
echo "| --- | ---: |"
callgrind_control -i on "$pid" >/dev/null 2>&1
declare -A counts
for page in "${pages[@]}"; do
  IFS='|' read -r label who path status <<<"$page"
  [ -z "${ONLY:-}" ] || [[ $label =~ $ONLY ]] || continue
  # The same person's page in German: the language picker's cookie.
  # A browser's Accept-Language (every browser sends one; the person has chosen no language).
  header=""
  case $who in
    *-de) cookies="${cookie[sqlite/${who%-de}]}; lang=de" ;;
    *-browser) cookies=${cookie[sqlite/${who%-browser}]} header="Accept-Language: en-US,en;q=0.9,de;q=0.8" ;;
    *) cookies=${cookie[sqlite/$who]} ;;
  esac
  [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $cookies" "$base$path")" = "${status:-200}" ] \
    || { echo "FAILED: $label did not answer ${status:-200}" >&2; exit 1; }
  ask "$WARMUP" "$cookies" "$path" "$header"
  callgrind_control -z "$pid" >/dev/null 2>&1
  ask "$REQUESTS" "$cookies" "$path" "$header"
  callgrind_control -d "$pid" >/dev/null 2>&1
  file=$(ls -t "$work"/callgrind.* | head -1)
  total=$(awk '/^summary:|^totals:/ { print $2; exit }' "$file")
  [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$file" "$KEEP/$(tr 'A-Z' 'a-z' <<<"${label#GET }" | tr -c 'a-z0-9\n' '-' | sed 's/^-*//' | cut -c1-40).callgrind"
  counts[$label]=$(awk -v t="$total" -v r="$REQUESTS" 'BEGIN { printf "%.0f", t / r }')
  printf '| %s | %s |\n' "$label" "${counts[$label]}"
done

# The goals: the editor at most 500 k instructions a request, and home, /history and a group's
# page each at most 1.5 × the editor's.
editor=${counts["GET /profiles/1 (the editor)"]:-}
[ -n "$editor" ] || exit 0
echo
echo "| goal | measured | |"
echo "| --- | ---: | --- |"
verdict() { awk -v v="$1" -v g="$2" 'BEGIN { print (v <= g) ? "met" : "NOT met" }'; }
echo "| GET /profiles/1 at most 500 k instructions a request | $editor | $(verdict "$editor" 500000) |"
for label in "${!counts[@]}"; do
  [[ $label == "GET / ("* || $label == "GET /history"* || $label == "GET /groups/1 ("* ]] || continue
  echo "| $label at most 1.5 × the editor's | $(ratio "${counts[$label]}" "$editor")× | $(verdict "${counts[$label]}" "$((editor * 3 / 2))") |"
done | sort
# Choosing the language from a browser's header is a few instructions, not a page's worth.
browser=${counts["GET /profiles/1, with a browser's Accept-Language"]:-}
[ -z "$browser" ] || echo "| the editor with a browser's Accept-Language at most 1.05 × without | $(ratio "$browser" "$editor")× | $(verdict "$browser" "$((editor * 105 / 100))") |"
