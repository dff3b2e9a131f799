#!/usr/bin/env bash
# Group event streams (GET /groups/{id}/events, Server-Sent Events), with the release server.
# scripts/event-streams.py signs PEOPLE (400) people up, all in one group, and opens STREAMS
# (2,000) streams spread over them (at most 5 each, the server's limit).
#  1. Memory: the SQLite server's RSS before and with the streams open and idle, per stream.
#  2. GET /profiles/1 (a person from `seed`) with wrk, without the streams and while they are
#     held, ROUNDS times interleaved, medians and their ratio.
#  3. Delivery: the group's sitter starts and stops sitting EVENTS (100) times, each once every
#     stream had the last one's event; the time from each post to its event on each stream.
#     Once on the SQLite instance alone, then across two instances sharing one throwaway
#     PostgreSQL (scripts/test-postgres.sh): posts to A, the streams on B.
# Last, the goals, each with what this run measured and whether it met it. A step that fails
# (a stream that does not open or ends while held, a post's event missing on a stream, any wrk
# status or socket error) fails the script, after the tables; a goal missed does not.
set -euo pipefail
shopt -s inherit_errexit  # a failing curl in `seed` stops the script
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-3}
PEOPLE=${PEOPLE:-400}
STREAMS=${STREAMS:-2000}
EVENTS=${EVENTS:-100}
BIN=${BIN:-.build/release/sangha}

source scripts/common.sh

# Each stream is a connection on the server and one in event-streams.py (which raises its own
# limit), besides wrk's: the servers, started from here, get the hard limit.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 65536
if (($(ulimit -n) < STREAMS + 1024)); then
  echo "the open-files limit ($(ulimit -n)) is below $((STREAMS + 1024)): raise the hard limit (ulimit -Hn)" >&2
  exit 1
fi

work=$(mktemp -d)
chmod 711 "$work"  # PostgreSQL runs as the postgres user, in $work/postgres
pg_dir="$work/postgres"
pg_started=false
pids=()
declare -A server_logs
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if ((status != 0)); then
    for name in "${!server_logs[@]}"; do
      [ -s "${server_logs[$name]}" ] || continue
      echo "The end of sangha $name's log:" >&2
      tail -n 20 "${server_logs[$name]}" >&2
    done
  fi
  if $pg_started; then scripts/test-postgres.sh stop "$pg_dir" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# start_sangha NAME ARGS…: a release server with its own ports, data folder and log; sets
# NAME's URL in `bases` and its process id in `server_pids`. Anyone may sign up, as often as
# they like, and bcrypt runs at its lowest cost (4), so that 400 sign-ups take seconds; the
# STREAMS connections all come from one address (loopback): no limit on its connections.
declare -A bases server_pids
start_sangha() {
  local name=$1
  shift
  local port friend_port
  port=$(free_port)
  friend_port=$(free_port)
  server_logs[$name]="$work/$name.log"
  "$BIN" serve --port "$port" --friend-service-port "$friend_port" --data-dir "$work/data-$name" \
    --sign-up open --address-limit 0 --password-cost 4 --connections-per-address 0 \
    --log-level warning "$@" >"${server_logs[$name]}" 2>&1 &
  pids+=("$!")
  server_pids[$name]=$!
  bases[$name]="http://127.0.0.1:$port"
  wait_until_up "${bases[$name]}"
}

# setup NAME: PEOPLE people in one group on instance NAME; what event-streams.py says of them
# (their cookies, the group, the sitter's profile) in $work/setup-NAME.json.
setup() {
  python3 scripts/event-streams.py setup "${bases[$1]}" --people "$PEOPLE" --group-name "Bench streams" \
    >"$work/setup-$1.json"
}

# hold_streams NAME: opens the STREAMS streams on instance NAME in the background and returns
# once every one answered 200 text/event-stream (2 minutes at most); sets hold_pid. Its stdin
# is a FIFO this script keeps open: should the script die, the streams close with it.
hold_streams() {
  rm -f "$work/hold.in" "$work/hold.out"
  mkfifo "$work/hold.in"
  python3 scripts/event-streams.py hold "${bases[$1]}" "$work/setup-$1.json" --streams "$STREAMS" \
    <"$work/hold.in" >"$work/hold.out" &
  hold_pid=$!
  pids+=("$hold_pid")
  exec {hold_in}>"$work/hold.in"
  for _ in $(seq 1200); do
    grep -qx "open $STREAMS" "$work/hold.out" && return 0
    kill -0 "$hold_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "the $STREAMS streams did not all open on $1" >&2
  return 1
}

# release_streams: closes the held streams; fails if one of them ended while held.
release_streams() {
  exec {hold_in}>&-
  kill "$hold_pid" 2>/dev/null || true
  if ! wait "$hold_pid"; then
    echo "holding the streams failed (see above)" >&2
    return 1
  fi
}

rss_kib() { awk '/VmRSS/ { print $2 }' "/proc/$1/status"; }

echo "## Group event streams"
echo

# 1 and 2: one SQLite instance. `seed` first, so that /profiles/1 is its person's.
start_sangha sqlite
cookie=$(seed "${bases[sqlite]}" "$work/cookies")
curl -fs -o /dev/null -H "Cookie: $cookie" "${bases[sqlite]}/profiles/1"
setup sqlite
echo "Data: \`seed\` (50 friends, profiles 1 and 2), then $PEOPLE people in one group (scripts/event-streams.py setup);"
echo "$STREAMS streams of that group, at most 5 a person. SQLite unless said."

# Each target: label|streams held (yes/no).
targets=(
  "GET /profiles/1, no streams|no"
  "GET /profiles/1, $STREAMS idle streams held|yes"
)
declare -A results
failures=()
held=false
for round in $(seq "$ROUNDS"); do
  for target in "${targets[@]}"; do
    IFS='|' read -r label streams <<<"$target"
    if [ "$streams" = yes ]; then
      if [ "$round" = 1 ]; then rss_before=$(rss_kib "${server_pids[sqlite]}"); fi
      hold_streams sqlite
      held=true
      sleep 2
      if [ "$round" = 1 ]; then rss_after=$(rss_kib "${server_pids[sqlite]}"); fi
    fi
    line=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "Cookie: $cookie" \
      -s scripts/wrk-report.lua "${bases[sqlite]}/profiles/1" | grep '^RESULT')
    # Errors fail the script, at its end: the tables still show what every target did.
    if ! grep -q 'status_errors=0 socket_errors=0' <<<"$line"; then
      failures+=("$label (round $round): ${line#RESULT }")
    fi
    results["$label"]+=$(wrk_figures "$line")
    if $held; then
      release_streams
      held=false
    fi
  done
done
per_stream=$(awk -v a="$rss_before" -v b="$rss_after" -v n="$STREAMS" 'BEGIN { printf "%.1f", (b - a) / n }')

echo
echo "## Memory (SQLite, after a round of wrk; the streams idle for 2 s)"
echo
echo "| | RSS |"
echo "| --- | ---: |"
echo "| before the streams | $(awk -v k="$rss_before" 'BEGIN { printf "%.1f", k / 1024 }') MiB |"
echo "| with $STREAMS streams open | $(awk -v k="$rss_after" 'BEGIN { printf "%.1f", k / 1024 }') MiB |"
echo "| per stream | $per_stream KiB |"

declare -A rps
echo
echo "## Throughput beside the streams (wrk, $CONNECTIONS connections, $THREADS threads, $DURATION × $ROUNDS rounds, medians)"
echo
throughput_table "${targets[@]}"
throughput=$(ratio "${rps["GET /profiles/1, $STREAMS idle streams held"]}" "${rps["GET /profiles/1, no streams"]}")
echo
echo "With the streams ÷ without: $throughput"

# 3: delivery. Once on the SQLite instance (posts and streams on one process), then across two
# instances on one PostgreSQL: the data and the people set up on A are B's too.
declare -A latency
latency[sqlite]=$(python3 scripts/event-streams.py latency "${bases[sqlite]}" "${bases[sqlite]}" \
  "$work/setup-sqlite.json" --streams "$STREAMS" --events "$EVENTS" | grep '^RESULT')

pg_started=true  # before: a start that times out may still leave a server to stop
database_url=$(scripts/test-postgres.sh start "$pg_dir")
start_sangha a --database-url "$database_url"
start_sangha b --database-url "$database_url"
setup a
latency[postgres]=$(python3 scripts/event-streams.py latency "${bases[a]}" "${bases[b]}" \
  "$work/setup-a.json" --streams "$STREAMS" --events "$EVENTS" | grep '^RESULT')

# field NAME LINE: the value of NAME=… in a RESULT line.
field() { sed -E "s/.*[ ]$1=([^ ]+).*/\\1/" <<<" ${2#RESULT }"; }

echo
echo "## Delivery (the sitter's post until its sitting-now event, every stream; $EVENTS posts, $STREAMS streams)"
echo
echo "| where | events delivered | of | p50 ms | p99 ms | max ms | shown wrong |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for run in sqlite postgres; do
  line=${latency[$run]}
  case $run in
    sqlite) title="one SQLite instance" ;;
    postgres) title="PostgreSQL: posts to A, streams on B" ;;
  esac
  echo "| $title | $(field deliveries "$line") | $(field expected "$line") | $(field p50_ms "$line") | $(field p99_ms "$line") | $(field max_ms "$line") | $(field mismatched "$line") |"
  if [ "$(field deliveries "$line")" != "$(field expected "$line")" ]; then
    failures+=("delivery, $title: ${line#RESULT }")
  fi
done
echo
echo "Arrival is the kernel's receive time of the event's bytes (clock=$(field clock "${latency[postgres]}")); read by"
echo "Python, one socket after another, the PostgreSQL p99 is $(field read_p99_ms "${latency[postgres]}") ms. \"Shown wrong\": an event after"
echo "a start that does not name the sitter, or after a stop that does."

# The goals, each with what this run measured.
verdict() { awk -v v="$1" -v op="$2" -v g="$3" 'BEGIN { ok = (op == ">=") ? v >= g : v <= g; print ok ? "met" : "NOT met" }'; }
goal() { echo "| $1 | $2 | $(verdict "$2" "$3" "$4") |"; }
postgres_p99=$(field p99_ms "${latency[postgres]}")
echo
echo "### Goals"
echo
echo "| goal | measured | |"
echo "| --- | ---: | --- |"
echo "| RSS per idle stream ≤ 32 KB | $per_stream KiB | $(verdict "$per_stream" "<=" 32) |"
goal "GET /profiles/1 with $STREAMS streams held ≥ 0.9 × without" "$throughput" ">=" 0.9
echo "| an event's p99 across instances (PostgreSQL, $STREAMS streams) ≤ 100 ms | $postgres_p99 ms | $(verdict "$postgres_p99" "<=" 100) |"
echo "| every post's event on every stream, no wrk status or socket errors | ${#failures[@]} failed runs | $( ((${#failures[@]} == 0)) && echo met || echo "NOT met") |"
if ((${#failures[@]} > 0)); then
  echo
  for failure in "${failures[@]}"; do echo "FAILED: $failure"; done
  exit 1
fi
