#!/usr/bin/env bash
# make loadtest: wrk against the release build on three routes, 64 connections, 30 s each.
# Prints requests/s, p50/p99 latency and errors per route, and the server's RSS before and
# after; fails on any answer that is not 2xx/3xx and on any socket error.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-30s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
BIN=.build/release/sangha

source scripts/common.sh

data=$(mktemp -d)
port=$(free_port)
friend_port=$(free_port)
"$BIN" serve --port "$port" --friend-service-port "$friend_port" --data-dir "$data" --log-level warning &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$data"' EXIT

base="http://127.0.0.1:$port"
wait_until_up "$base"
# A person signed up (their browser's cookies), their 50 friends and a profile to load.
cookies=$(seed "$base" "$data/cookies")
token=$(form_token_of "$base" "$cookies")

echo "Sangha load test: $CONNECTIONS connections, $DURATION per route, $THREADS wrk threads, pid $pid"
echo "RSS before: $(rss_mib "$pid") MiB"
failed=0
run() {
  local label=$1 url=$2
  # A page must be the page, not the way to the sign-in page (wrk counts a 303 as no error).
  if [ -z "${FORM_BODY:-}" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $cookies" "$url")" != 200 ]; then
    echo "FAILED: $label is not 200 for the signed-in browser" >&2
    failed=1
    return
  fi
  local output
  output=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "Cookie: $cookies" -s scripts/wrk-report.lua \
    "$url")
  local result
  result=$(grep '^RESULT' <<<"$output" | sed 's/^RESULT //')
  printf '%-28s %s\n' "$label" "$result"
  if ! grep -q 'status_errors=0 socket_errors=0' <<<"$result"; then failed=1; fi
}
run "GET /friends (50 friends)" "$base/friends"
run "GET /profiles/1" "$base/profiles/1"
FORM_BODY="name=Load%20test&main.duration=20&_csrf=$token" \
  run "POST /profiles/1 (save)" "$base/profiles/1"
echo "RSS after:  $(rss_mib "$pid") MiB"
if [ "$failed" -ne 0 ]; then
  echo "FAILED: some answers were not 2xx/3xx, or sockets failed" >&2
  exit 1
fi
