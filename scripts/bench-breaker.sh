#!/usr/bin/env bash
# make bench: home while the FriendService hangs (it accepts connections and never answers),
# once the circuit breaker has stopped calling it, against home while it answers, in one run.
# The service is a real `sangha friend-service`, then a listener on the same port that never
# answers; three pages first wait the whole timeout, then the breaker is open.
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

service_port=$(free_port)
"$BIN" friend-service --port "$service_port" --data-dir "$work/service" --log-level warning &
service_pid=$!
pids+=("$service_pid")
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$service_port/listFriends" && break; sleep 0.1; done

port=$(free_port)
base="http://127.0.0.1:$port"
"$BIN" serve --port "$port" --data-dir "$work/data" --friend-service-url "http://127.0.0.1:$service_port" \
  --friend-service-timeout 3 --sign-up open --address-limit 0 --log-level warning &
pids+=($!)
wait_until_up "$base"
cookies=$(seed "$base" "$work/cookies")
grep -q 'Friend ' <<<"$(curl -fs -H "Cookie: $cookies" "$base/")" # home shows the service's list

declare -A results
measure() {
  local label=$1
  for _ in $(seq "$ROUNDS"); do
    # A request that carries the breaker's probe waits the service's whole timeout (3 s), and so
    # do that person's requests that join it: counted as slow, not as errors.
    line=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --timeout 10s --latency -H "Cookie: $cookies" \
      -s scripts/wrk-report.lua "$base/" | grep '^RESULT')
    if ! grep -q 'status_errors=0 socket_errors=0' <<<"$line"; then
      echo "FAILED: $label: $line" >&2
      exit 1
    fi
    results["$label"]+=$(wrk_figures "$line")
  done
}
measure "GET / (home), the FriendService answering"

# The service hangs: the same port accepts connections and never answers.
kill "$service_pid"
wait "$service_pid" 2>/dev/null || true
python3 -c '
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(4096)
time.sleep(3600)
' "$service_port" &
pids+=($!)
sleep 0.5
for _ in 1 2 3; do curl -fs -o /dev/null -H "Cookie: $cookies" "$base/"; done
grep -q 'Showing the list saved on' <<<"$(curl -fs -H "Cookie: $cookies" "$base/")"
measure "GET / (home), the FriendService hung"

declare -A rps
echo
echo "## A hung FriendService (wrk, $CONNECTIONS connections, $THREADS threads, $DURATION × $ROUNDS rounds, medians)"
echo
throughput_table "GET / (home), the FriendService answering|" "GET / (home), the FriendService hung|"
answering=${rps["GET / (home), the FriendService answering"]}
hung=${rps["GET / (home), the FriendService hung"]}
measured=$(ratio "$hung" "$answering")
met=$(awk -v v="$measured" 'BEGIN { print (v >= 0.5) ? "met" : "NOT met" }')
echo
echo "| goal | measured | |"
echo "| --- | ---: | --- |"
echo "| home with the FriendService hung ≥ 0.5 × home with it answering | $measured | $met |"
