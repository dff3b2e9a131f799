#!/usr/bin/env bash
# make bench: render times (the compiled templates against swift-mustache, which must write the
# same bytes, and against copying those bytes), then wrk against the release server: GET /friends (50 friends, embedded FriendService),
# GET /profiles/1, the same page bytes from memory (the server's ceiling), the FriendService's
# own GET /listFriends, and nginx serving the same bytes as a static file. Each wrk target runs
# ROUNDS times, interleaved, and its median is reported with the ratios; last, the performance
# goals, each with what this run measured and whether it met it.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-3}
BIN=.build/release/sangha

source scripts/common.sh

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "# Sangha benchmark, $(date -u +%Y-%m-%d), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
echo
echo "## Render time (release build, median of 15 batches)"
echo
.build/release/sangha-bench . | tee "$work/render.txt"

# DATABASE_URL=postgres://…: the same pages on PostgreSQL (an empty database, e.g. from
# `scripts/test-postgres.sh start DIR`), for each page's PostgreSQL ÷ SQLite figure.
start_sangha() {
  "$BIN" serve --port "$port" --friend-service-port "$friend_port" --data-dir "$work/data" \
    --sign-up open --address-limit 0 ${DATABASE_URL:+--database-url "$DATABASE_URL"} \
    --log-level warning "$@" &
  sangha_pid=$!
  pids+=("$sangha_pid")
  wait_until_up "http://127.0.0.1:$port"
}

port=$(free_port)
friend_port=$(free_port)
base="http://127.0.0.1:$port"
start_sangha

# A person signed up (their browser's cookies, so pages do not mint a token per request), their
# 50 friends and profiles.
jar="$work/cookies"
cookies=$(seed "$base" "$jar")

# The friends page's and the heaviest editor's own bytes, served again from memory through the
# app's own middleware (sangha-bench serve-pages, at /_bench/NAME) and, the friends page, by nginx.
mkdir -p "$work/static"
curl -fs -b "$jar" "$base/friends" >"$work/static/friends.html"
curl -fs -b "$jar" "$base/profiles/2" >"$work/static/editor.html"
grep -q 'Cool Down duration' "$work/static/editor.html"  # the editor with both sections on
chmod 755 "$work" "$work/static" && chmod 644 "$work/static/"*.html  # nginx's workers read them
pages_port=$(free_port)
.build/release/sangha-bench serve-pages --port "$pages_port" "$work/static/friends.html" "$work/static/editor.html" \
  >"$work/pages.log" 2>&1 &
pids+=($!)
wait_until_up "http://127.0.0.1:$pages_port"

nginx_port=$(free_port)
cat >"$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  types { text/html html; }
  server {
    listen 127.0.0.1:$nginx_port;
    root $work/static;
  }
}
CONF
nginx -c "$work/nginx.conf" -g 'daemon off;' &
pids+=($!)
sleep 0.5

cookie="Cookie: $cookies"
# The embedded FriendService keeps one list per bearer token, and a person's token never leaves
# Sangha: its own target reads a list of 50 friends kept under a token of the bench's.
service_auth="Authorization: Bearer bench-friend-service-token"
letters=(A B C D E F G H I J K L M N O P Q R S T U V W X Y Z)
for i in $(seq 50); do
  curl -fs -o /dev/null -H "$service_auth" -H 'Content-Type: application/json' \
    -d "{\"firstname\":\"Friend\",\"lastname\":\"${letters[$((i % 26))]}${letters[$((i / 26))]}\",\"phonenumber\":\"55501$i\"}" \
    "http://127.0.0.1:$friend_port/addFriend"
done
# The person's groups: 20, with 5 sits each (every other one weekly), and their calendar link:
# the feed of a person in 20 groups with 100 sits.
token=$(form_token "$base/groups" "$jar")
sit_start=$(date -u -d '+30 days' +%Y-%m-%dT07:00)
for group in $(seq 20); do
  curl -fs -b "$jar" -o /dev/null -d "name=Group+$group&_csrf=$token" "$base/groups"
  for sit in $(seq 5); do
    weekly=$([ $((sit % 2)) = 0 ] && echo "&weekly=on" || true)
    curl -fs -b "$jar" -o /dev/null -d "profile=1&startsAt=$sit_start$weekly&_csrf=$token" "$base/groups/$group/sits"
  done
done
feed=$(curl -fs -b "$jar" -d "_csrf=$token" "$base/settings/calendar" | grep -o 'http://[^"]*/calendar/[0-9a-f]*\.ics' | head -1)
[ -n "$feed" ] || { echo "FAILED: no calendar link was made" >&2; exit 1; }
[ "$(curl -fs "$feed" | grep -c '^BEGIN:VEVENT')" = 100 ] || { echo "FAILED: the feed has not 100 sits" >&2; exit 1; }

targets=(
  "GET /friends (50 friends)|$base/friends"
  "GET /profiles/1|$base/profiles/1"
  "same bytes from memory|http://127.0.0.1:$pages_port/_bench/friends.html"
  "GET /profiles/2 (heaviest editor)|$base/profiles/2"
  "heaviest editor's bytes from memory|http://127.0.0.1:$pages_port/_bench/editor.html"
  "FriendService GET /listFriends|http://127.0.0.1:$friend_port/listFriends"
  "nginx static file|http://127.0.0.1:$nginx_port/friends.html"
  "GET / (home, no sessions)|$base/"
  "GET /history (no sessions)|$base/history"
  "GET /me (no sessions)|$base/me"
  "GET /profiles|$base/profiles"
  "GET /profiles/1/sit (sitting page)|$base/profiles/1/sit"
  "GET /settings|$base/settings"
  "GET /groups (20 groups)|$base/groups"
  "GET /groups/1 (a group's page)|$base/groups/1"
  "GET /groups/1/sits/1 (a sit's page)|$base/groups/1/sits/1"
  "GET /admin|$base/admin"
  "GET the calendar feed (20 groups, 100 sits)|$feed"
  "GET /health (the framework's floor)|$base/health"
)
# Every page measured is there (a 404 or a redirect would be measured as fast).
for target in "${targets[@]}"; do
  url=${target#*|}
  [[ $url == *"/listFriends" || $url == *"/_bench/"* || $url == *":$nginx_port/"* ]] && continue
  status=$(curl -s -o /dev/null -w '%{http_code}' -b "$jar" "$url")
  [ "$status" = 200 ] || { echo "FAILED: ${target%%|*} answered $status, not 200" >&2; exit 1; }
done
declare -A results
max_rss=0
max_anon=0
for round in $(seq "$ROUNDS"); do
  for target in "${targets[@]}"; do
    label=${target%%|*}
    url=${target#*|}
    header=$cookie
    [[ $url == *"/listFriends" ]] && header=$service_auth
    # The pages server knows no one: a session cookie would cost it a lookup that finds nobody.
    [[ $url == *"/_bench/"* ]] && header="Accept: text/html"
    # A calendar app sends no cookie.
    [[ $url == *"/calendar/"* ]] && header="Accept: text/calendar"
    line=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "$header" -s scripts/wrk-report.lua "$url" \
      | grep '^RESULT')
    if ! grep -q 'status_errors=0 socket_errors=0' <<<"$line"; then
      echo "FAILED: $label: $line" >&2
      exit 1
    fi
    results["$label"]+=$(wrk_figures "$line")
    rss=$(rss_mib "$sangha_pid")
    max_rss=$(awk -v a="$max_rss" -v b="$rss" 'BEGIN { print (b > a) ? b : a }')
    anon=$(rss_anon_mib "$sangha_pid")
    max_anon=$(awk -v a="$max_anon" -v b="$anon" 'BEGIN { print (b > a) ? b : a }')
  done
done

declare -A rps
echo
echo "## Throughput (wrk, $CONNECTIONS connections, $THREADS threads, $DURATION × $ROUNDS rounds, medians)"
echo
throughput_table "${targets[@]}"
friends=${rps["GET /friends (50 friends)"]}
profile=${rps["GET /profiles/1"]}
same=${rps["same bytes from memory"]}
editor=${rps["GET /profiles/2 (heaviest editor)"]}
editor_same=${rps["heaviest editor's bytes from memory"]}
nginx_rps=${rps["nginx static file"]}
echo
echo "## Ratios"
echo
echo "| ratio | value |"
echo "| --- | ---: |"
echo "| GET /friends ÷ same bytes from memory | $(ratio "$friends" "$same") |"
echo "| GET /profiles/1 ÷ same bytes from memory | $(ratio "$profile" "$same") |"
echo "| GET /friends ÷ GET /profiles/1 | $(ratio "$friends" "$profile") |"
echo "| GET /profiles/2 (heaviest editor) ÷ its bytes from memory | $(ratio "$editor" "$editor_same") |"
for target in "${targets[@]:0:3}" "${targets[5]}"; do
  label=${target%%|*}
  echo "| $label ÷ nginx static | $(ratio "${rps[$label]}" "$nginx_rps") |"
done
echo
echo "Largest RSS of sangha serve under load: $max_rss MiB ($max_anon MiB of it allocated; the rest is the binary's and libraries' pages)"

# The performance goals, each with what this run measured.
verdict() { awk -v v="$1" -v op="$2" -v g="$3" 'BEGIN { ok = (op == ">=") ? v >= g : v < g; print ok ? "met" : "NOT met" }'; }
render=$(sed -nE 's/^Largest compiled ÷ swift-mustache: ([0-9.]+)×$/\1/p' "$work/render.txt")
rss_mb=$(awk -v m="$max_rss" 'BEGIN { printf "%.1f", m * 1.048576 }')
echo
echo "## Goals"
echo
echo "| goal | measured | |"
echo "| --- | ---: | --- |"
echo "| compiled render at most 0.5 × swift-mustache's, every page and size | ${render}× | $(verdict "$render" "<" 0.5001) |"
echo "| GET /profiles/1 ≥ 0.7 × same bytes from memory | $(ratio "$profile" "$same") | $(verdict "$(ratio "$profile" "$same")" ">=" 0.7) |"
echo "| GET /friends ≥ 0.5 × GET /profiles/1 | $(ratio "$friends" "$profile") | $(verdict "$(ratio "$friends" "$profile")" ">=" 0.5) |"
for page in "GET / (home, no sessions)" "GET /history (no sessions)" "GET /me (no sessions)" "GET /profiles" \
  "GET /profiles/1/sit (sitting page)" "GET /settings" "GET /groups (20 groups)" "GET /groups/1 (a group's page)" \
  "GET /groups/1/sits/1 (a sit's page)" "GET /admin" "GET the calendar feed (20 groups, 100 sits)"; do
  echo "| $page ≥ 0.5 × GET /profiles/1 | $(ratio "${rps[$page]}" "$profile") | $(verdict "$(ratio "${rps[$page]}" "$profile")" ">=" 0.5) |"
done
health=${rps["GET /health (the framework's floor)"]}
echo "| GET /profiles/1 ≥ 0.8 × GET /health | $(ratio "$profile" "$health") | $(verdict "$(ratio "$profile" "$health")" ">=" 0.8) |"
# No page stalls behind another's reads: each page's p99 within 3 × its median latency.
for target in "${targets[@]}"; do
  label=${target%%|*}
  [[ $label == GET* ]] || continue
  # A median of 0.00 ms (rounded) counts as 0.01 ms.
  spread=$(awk -v a="$(median 3 <<<"${results[$label]}")" -v b="$(median 2 <<<"${results[$label]}")" \
    'BEGIN { printf "%.2f", a / (b > 0 ? b : 0.01) }')
  echo "| $label: p99 ≤ 3 × p50 | ${spread}× | $(verdict "$spread" "<" 3.0001) |"
done
echo "| RSS under load below 64 MB | $rss_mb MB | $(verdict "$rss_mb" "<" 64) |"
echo "| heaviest editor ≥ 0.7 × its bytes from memory | $(ratio "$editor" "$editor_same") | $(verdict "$(ratio "$editor" "$editor_same")" ">=" 0.7) |"
