#!/usr/bin/env bash
# make bench, notifications: a group sit in a group of MEMBERS (1,000) members with DEVICES (2)
# devices each, on one release instance (SQLite) whose push service is a stand-in on loopback
# (nginx answering 201 to every post, each logged with the time it was answered). Members are
# added by scripts/push-members.py as browsers add them (sign-up, the invitation, Settings'
# subscription); the app sends with its own scheduler, sender, encryption and VAPID.
#
# 1. The host schedules a sit less than ten minutes ahead (due at once), ROUNDS times, each
#    cancelled once all its posts are in: the time from the host's post until the stand-in
#    answered the first and the last of its MEMBERS × DEVICES posts, pushes/s, and the server's
#    CPU time (/proc) per push. Goal: the last within 5 s.
# 2. GET /profiles/1 (the editor) by wrk, alone and while sits are scheduled one after another
#    (each as soon as the one before has all its posts), in interleaved rounds. Goal: ≥ 0.9 ×.
# 3. Instructions per push by callgrind: the server run again under it for one sit, every
#    instruction of the process from the host's post to the last post answered (the scheduler's
#    claim, the encryption, VAPID, the HTTP posts), divided by the pushes; and the parts
#    through the app's own code by `sangha-bench push-cost`.
# Prints the tables and the goals with whether each was met; fails when a measurement could not
# be taken (a sit not scheduled, a post missing or answered other than 201, a wrk error).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
ROUNDS=${ROUNDS:-3}
MEMBERS=${MEMBERS:-1000}
DEVICES=${DEVICES:-2}
COUNT=${COUNT:-200}
# PUSH_RATE=N: the server started with --push-rate N; unset, serve's default (500 a second);
# 100000 for as fast as they come.
PUSH_RATE=${PUSH_RATE:-}
BIN=${BIN:-.build/release/sangha}
BENCH_BIN=${BENCH_BIN:-.build/release/sangha-bench}
source scripts/common.sh

for tool in wrk nginx valgrind callgrind_annotate callgrind_control; do
  command -v "$tool" >/dev/null || { echo "FAILED: $tool is not installed (make bench installs it)" >&2; exit 1; }
done
for binary in "$BIN" "$BENCH_BIN"; do
  [ -x "$binary" ] || { echo "FAILED: no $binary (make bench builds it)" >&2; exit 1; }
done

work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if ((status != 0)) && [ -s "$work/serve.log" ]; then
    echo "The end of sangha's log:" >&2
    tail -n 20 "$work/serve.log" >&2
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The stand-in push service: 201 to every post under /push/, a line each: status, time answered.
push_port=$(free_port)
mkdir -p "$work/nginx"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
  log_format push '\$status \$msec';
  client_body_temp_path $work/nginx/client_body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:$push_port;
    access_log $work/nginx/posts.log push;
    location /push/ { return 201; }
  }
}
CONF
touch "$work/nginx/posts.log"
nginx -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
pids+=($!)
posts() { wc -l <"$work/nginx/posts.log"; }

port=$(free_port)
friend_port=$(free_port)
base="http://127.0.0.1:$port"
server=""
serve() {
  "$@" serve --port "$port" --friend-service-port "$friend_port" --data-dir "$work/data" --sign-up open \
    --address-limit 0 --password-cost 4 --log-level warning \
    --push-contact mailto:bench@sangha.org --push-allow-endpoint "http://127.0.0.1:$push_port" \
    ${PUSH_RATE:+--push-rate "$PUSH_RATE"} 2>>"$work/serve.log" &
  server=$!
  pids+=("$server")
}
serve "$BIN"
wait_until_up "$base"

# The host: a person with the editor's profiles (seed), a group and its invitation link.
jar="$work/cookies"
cookies=$(seed "$base" "$jar")
token=$(form_token "$base/groups" "$jar")
curl -fs -b "$jar" -o /dev/null -d "name=Morning&_csrf=$token" "$base/groups"
invitation=$(curl -fs -b "$jar" -d "_csrf=$token" "$base/groups/1/invitations" | grep -o '/groups/invite/[A-Za-z0-9_-]*' | head -1)
[ -n "$invitation" ] || { echo "FAILED: group 1 gave no invitation link" >&2; exit 1; }
python3 scripts/push-members.py "$base" "$invitation" "http://127.0.0.1:$push_port/push" \
  --members "$MEMBERS" --devices "$DEVICES" >&2
expected=$((MEMBERS * DEVICES))

# schedule_sit INTO [SECONDS]: the host schedules a sit two to nine minutes ahead (less than ten:
# due at once), waits up to SECONDS (60) for all its posts, then cancels it (a group may have 50
# sits to come, 100 not over, cancelled ones counted). Appends to the array INTO "FIRST LAST;",
# the seconds from the post to the first and the last post answered.
sits=0
schedule_sit() {
  local -n into=$1
  local before target started
  ((sits < 100)) || { echo "FAILED: a group may have at most 100 sits not over; lower DURATION or ROUNDS" >&2; exit 1; }
  before=$(posts)
  target=$((before + expected))
  started=$(date +%s.%N)
  curl -fs -b "$jar" -o /dev/null \
    -d "profile=1&startsAt=$(date -u -d "+$((2 + sits % 8)) min" +%Y-%m-%dT%H:%M)&_csrf=$token" \
    "$base/groups/1/sits"
  sits=$((sits + 1))
  curl -fs -b "$jar" -o /dev/null "$base/groups/1/sits/$sits" || { echo "FAILED: sit $sits was not scheduled" >&2; exit 1; }
  # Looked for ten times a second: the times come from nginx's log, not from this loop, which
  # shares the two cores with the server (at fifty a second its `wc` on the growing log took a
  # tenth of one).
  for _ in $(seq $((${2:-60} * 10))); do
    (($(posts) >= target)) && break
    sleep 0.1
  done
  (($(posts) >= target)) || { echo "FAILED: sit $sits: $((target - $(posts))) of $expected posts missing after ${2:-60} s" >&2; exit 1; }
  curl -fs -b "$jar" -o /dev/null -d "_csrf=$token" "$base/groups/1/sits/$sits/cancel"
  into+="$(awk -v start="$started" -v from="$((before + 1))" -v to="$target" '
    NR == from { first = $2 } NR == to { last = $2 } END { printf "%.3f %.3f;", first - start, last - start }' \
    "$work/nginx/posts.log")"
}

# cpu_ticks: the server's user and system time so far, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server/stat"; }

editor() {
  wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -H "Cookie: $cookies" -s scripts/wrk-report.lua \
    "$base/profiles/1" | grep '^RESULT'
}

# 1. A sit alone, the figure the goal is about.
alone=""
ticks_before=$(cpu_ticks)
for _ in $(seq "$ROUNDS"); do
  schedule_sit alone
  sleep 1
done
ticks=$(($(cpu_ticks) - ticks_before))
cpu_per_push=$(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v n="$((ROUNDS * expected))" \
  'BEGIN { printf "%.0f", t / hz * 1e6 / n }')

# 2. The editor alone and while sits go out one after another.
declare -A results
pushing=""
for _ in $(seq "$ROUNDS"); do
  line=$(editor)
  grep -q 'status_errors=0 socket_errors=0' <<<"$line" || { echo "FAILED: the editor: $line" >&2; exit 1; }
  results[alone]+="$(wrk_figures "$line")"
  editor >"$work/editor.txt" &
  wrk_pid=$!
  while kill -0 "$wrk_pid" 2>/dev/null; do schedule_sit pushing; done
  wait "$wrk_pid"
  line=$(cat "$work/editor.txt")
  grep -q 'status_errors=0 socket_errors=0' <<<"$line" || { echo "FAILED: the editor: $line" >&2; exit 1; }
  results[pushing]+="$(wrk_figures "$line")"
done

# 3. The server again, under callgrind (counting only from the sit's post to its last push).
kill "$server"
wait "$server" 2>/dev/null || true
serve valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/server.callgrind" "$BIN"
for _ in $(seq 600); do curl -fs "$base/health" >/dev/null && break; sleep 0.2; done
curl -fs "$base/health" >/dev/null || { echo "FAILED: sangha did not start under valgrind" >&2; exit 1; }
callgrind_control -i on "$server" >/dev/null 2>&1
callgrind_control -z "$server" >/dev/null 2>&1
counted=""
schedule_sit counted 900
callgrind_control -d "$server" >/dev/null 2>&1
server_total=$(awk '/^summary:|^totals:/ { print $2; exit }' "$(ls -t "$work"/server.callgrind* | head -1)")
[ -n "$server_total" ] || { echo "FAILED: no callgrind totals for the server" >&2; exit 1; }
server_per_push=$(awk -v t="$server_total" -v n="$expected" 'BEGIN { printf "%.0f", t / n }')

valgrind --tool=callgrind --callgrind-out-file="$work/parts.callgrind" "$BENCH_BIN" push-cost "$COUNT" \
  >/dev/null 2>"$work/valgrind.log"
callgrind_annotate --inclusive=yes --threshold=100 "$work/parts.callgrind" >"$work/parts.txt"
declare -A part
for symbol in pushCostKeyPair pushCostECDH pushCostEncrypt pushCostSignature pushCostHeader; do
  part[$symbol]=$(awk -v symbol="$symbol" -v count="$COUNT" '
    index($0, symbol) { gsub(",", "", $1); printf "%.0f", $1 / count; exit }' "$work/parts.txt")
  [ -n "${part[$symbol]}" ] || { echo "FAILED: callgrind counted no $symbol" >&2; exit 1; }
done

if grep -q -v '^201 ' "$work/nginx/posts.log"; then
  echo "FAILED: the stand-in answered a post other than 201" >&2
  exit 1
fi

# seconds FIELD ROUNDS: the median and the largest of field FIELD (1 first, 2 last).
seconds() { tr ';' '\n' <<<"$2" | grep -v '^$' | awk -v f="$1" '{ print $f }' | sort -n; }
median_of() { seconds "$1" "$2" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
max_of() { seconds "$1" "$2" | tail -1; }
rate() { awk -v n="$expected" -v s="$1" 'BEGIN { printf "%.0f", n / s }'; }
last_max=$(max_of 2 "$alone")
rps_alone=$(median 1 <<<"${results[alone]}")
rps_pushing=$(median 1 <<<"${results[pushing]}")
editor_ratio=$(ratio "$rps_pushing" "$rps_alone")

echo
echo "## Notifications: a sit in a group of $MEMBERS members with $DEVICES devices each ($expected posts to a stand-in push service, one SQLite instance)"
echo
echo "| sits | n | first push, s (median) | last push, s (median; the slowest) | pushes/s (median) |"
echo "| --- | ---: | ---: | ---: | ---: |"
for row in "alone, one after another a second apart|$alone" "back to back while wrk asks for the editor|$pushing" \
  "under callgrind|$counted"; do
  label=${row%%|*}
  figures=${row#*|}
  echo "| $label | $(tr -cd ';' <<<"$figures" | wc -c) | $(median_of 1 "$figures") | $(median_of 2 "$figures") ($(max_of 2 "$figures")) | $(rate "$(median_of 2 "$figures")") |"
done
echo
echo "Seconds from the host's post of the sit (due at once) to the stand-in's answer. The server's CPU time"
echo "over the sits alone: $cpu_per_push µs a push (user and system, /proc)."
echo
echo "| GET /profiles/1 (the editor), $CONNECTIONS connections, $DURATION × $ROUNDS | requests/s | p50 ms | p99 ms |"
echo "| --- | ---: | ---: | ---: |"
echo "| alone | $rps_alone | $(median 2 <<<"${results[alone]}") | $(median 3 <<<"${results[alone]}") |"
echo "| while the sits' pushes go out | $rps_pushing | $(median 2 <<<"${results[pushing]}") | $(median 3 <<<"${results[pushing]}") |"
echo
echo "## One push's instructions (callgrind)"
echo
echo "| | instructions a push |"
echo "| --- | ---: |"
echo "| the server, from the sit's post to its last push answered, ÷ $expected | $server_per_push |"
echo "| \`PushEncryption.encrypt\` (the mean of $COUNT, inclusive) | ${part[pushCostEncrypt]} |"
echo "| of which the message's own key pair (P-256) | ${part[pushCostKeyPair]} |"
echo "| of which the browser's key read and the ECDH with it | ${part[pushCostECDH]} |"
echo "| the \`Authorization\` header as each post asks for it (the kept VAPID token) | ${part[pushCostHeader]} |"
echo "| a VAPID signature (ES256), once per push service every 11 hours | ${part[pushCostSignature]} |"

verdict() { awk -v v="$1" -v op="$2" -v g="$3" 'BEGIN { ok = (op == ">=") ? v >= g : v <= g; print ok ? "met" : "NOT met" }'; }
echo
echo "### Goals"
echo
echo "| goal | measured | |"
echo "| --- | ---: | --- |"
echo "| all $expected pushes answered within 5 s of the sit's post (the slowest of $ROUNDS) | $last_max s | $(verdict "$last_max" "<=" 5) |"
echo "| GET /profiles/1 while they go out ≥ 0.9 × alone | $editor_ratio | $(verdict "$editor_ratio" ">=" 0.9) |"
