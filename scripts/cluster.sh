#!/usr/bin/env bash
# make cluster: two `sangha serve` instances behind nginx on http://127.0.0.1:${CLUSTER_PORT:-8080},
# sharing a throwaway PostgreSQL server and one reference FriendService, all in a temporary
# folder. Ctrl-C stops every process it started, by its id, and removes the folder.
#
#   scripts/cluster.sh           start the cluster and wait for Ctrl-C
#   scripts/cluster.sh --bench   start it, seed 50 friends and 2 profiles, then wrk on
#                                GET /profiles/1 straight at one instance and through nginx to
#                                both; prints a table and fails on any error through nginx
#
# CLUSTER_PORT (8080) is nginx's port, BIN (.build/release/sangha) the binary; the benchmark
# takes DURATION (10s), CONNECTIONS (64) and THREADS (2) as scripts/bench.sh does, and wrk.
set -euo pipefail
cd "$(dirname "$0")/.."

CLUSTER_PORT=${CLUSTER_PORT:-8080}
BIN=${BIN:-.build/release/sangha}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}

case "${1:-}" in
  "") bench=false ;;
  --bench) bench=true ;;
  *) echo "usage: $0 [--bench]" >&2; exit 2 ;;
esac

source scripts/common.sh

[ -x "$BIN" ] || { echo "$BIN is missing: build it first (make release)" >&2; exit 1; }
for tool in nginx curl $([ "$bench" = true ] && echo wrk); do
  command -v "$tool" >/dev/null || { echo "$tool is missing (apt-get install nginx-light curl wrk)" >&2; exit 1; }
done
# Whether something listens there (SO_REUSEADDR, as nginx binds: closed connections do not count).
if ! python3 -c 'import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))' "$CLUSTER_PORT" 2>/dev/null; then
  echo "127.0.0.1:$CLUSTER_PORT is taken: stop what listens there or set CLUSTER_PORT" >&2
  exit 1
fi

work=$(mktemp -d /tmp/sangha-cluster.XXXXXX)
# PostgreSQL runs as the `postgres` user when this runs as root, and nginx's workers as theirs:
# both must reach their folders inside this one.
chmod 711 "$work"
pids=()
names=()

# stop_pid PID: SIGTERM (a graceful stop), then SIGKILL if it is still there after 10 s.
stop_pid() {
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# Newest first: nginx, the instances (while PostgreSQL still answers their requests in
# flight), the FriendService, then PostgreSQL.
cleanup() {
  trap - EXIT
  trap '' INT TERM  # a second Ctrl-C does not cut the cleanup short
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop_pid "${pids[i]}"; done
  if [ -d "$work/postgres" ]; then scripts/test-postgres.sh stop "$work/postgres" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# started NAME: records the last background process.
started() {
  pids+=("$!")
  names+=("$1")
}

# wait_for URL WHAT LOG: URL answers 200 within 10 s, else the end of LOG and a failure.
wait_for() {
  for _ in $(seq 100); do curl -fs -o /dev/null "$1" && return 0; sleep 0.1; done
  echo "$2 did not start; the end of $3:" >&2
  tail -n 20 "$3" >&2 || true
  return 1
}

log_level=info
if [ "$bench" = true ]; then log_level=warning; fi

database_url=$(scripts/test-postgres.sh start "$work/postgres")

friend_port=$(free_port)
"$BIN" friend-service --port "$friend_port" --data-dir "$work/friends" --log-level "$log_level" \
  >"$work/friends.log" 2>&1 &
started "FriendService"
wait_for "http://127.0.0.1:$friend_port/listFriends" "The FriendService" "$work/friends.log"

# start_instance NAME: `sangha serve` on instance NAME's port, its log appended to NAME.log.
declare -A instance_ports
start_instance() {
  "$BIN" serve --port "${instance_ports[$1]}" --database-url "$database_url" \
    --friend-service-url "http://127.0.0.1:$friend_port" --data-dir "$work/$1" --log-level "$log_level" \
    --public-url "http://127.0.0.1:$CLUSTER_PORT" --trusted-proxies 127.0.0.1 \
    >>"$work/$1.log" 2>&1 &
}

# Both instances start together: the PostgreSQL migrations' advisory lock lets one apply them.
for name in one two; do
  instance_ports[$name]=$(free_port)
  start_instance "$name"
  started "sangha $name"
done
for name in one two; do
  wait_until_up "http://127.0.0.1:${instance_ports[$name]}" || { tail -n 20 "$work/$name.log" >&2; exit 1; }
done

# nginx: round robin over both, keepalive connections to them, and a request whose instance
# refuses the connection or times out goes to the other (proxy_next_upstream). max_fails=0: an
# instance that failed is not set aside for fail_timeout (10 s), so one restarted a moment ago
# takes requests again at once, and stopping the next one right after does not leave nginx with
# "no live upstreams"; a stopped instance on this machine refuses at once. The Host header
# goes as it came; each instance is told the address people use (--public-url
# http://127.0.0.1:8080), so it serves that host and takes form posts from that origin alone.
mkdir -p "$work/nginx"
chmod 755 "$work/nginx"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx/client_body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;

  upstream sangha {
    server 127.0.0.1:${instance_ports[one]} max_fails=0;
    server 127.0.0.1:${instance_ports[two]} max_fails=0;
    keepalive 32;
  }


  server {
    listen 127.0.0.1:$CLUSTER_PORT;
    location / {
      proxy_pass http://sangha;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
    }
    # A group's event stream: each event passed on as it comes (no buffering; the app also says
    # X-Accel-Buffering: no), and a comment every 25 s keeps it inside proxy_read_timeout (60 s).
    location ~ ^/groups/[0-9]+/events\$ {
      proxy_pass http://sangha;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_connect_timeout 2s;
    }
  }
}
CONF
nginx -e "$work/nginx/error.log" -p "$work/nginx" -c "$work/nginx/nginx.conf" &
started "nginx"
base="http://127.0.0.1:$CLUSTER_PORT"
wait_for "$base/health" "nginx" "$work/nginx/error.log"

if [ "$bench" = false ]; then
  echo "Sangha cluster on $base"
  echo
  row() { printf '  %-14s %-8s %-46s %s\n' "$@"; }
  row "" "pid" "address" "log"
  row "nginx" "${pids[3]}" "$base" "$work/nginx/error.log"
  row "sangha one" "${pids[1]}" "http://127.0.0.1:${instance_ports[one]}" "$work/one.log"
  row "sangha two" "${pids[2]}" "http://127.0.0.1:${instance_ports[two]}" "$work/two.log"
  row "FriendService" "${pids[0]}" "http://127.0.0.1:$friend_port" "$work/friends.log"
  row "PostgreSQL" "$(head -n 1 "$work/postgres/data/postmaster.pid")" "$database_url" \
    "$work/postgres/server.log"
  echo
  echo "Ctrl-C stops everything. An instance stopped on its own (kill -TERM PID) is started again,"
  echo "from $BIN as it is then: a rolling restart is one instance at a time, each back before the next."
  # Wakes when one of them stops (Ctrl-C ends the wait through the trap instead).
  while true; do
    wait -n "${pids[@]}" || true
    for i in "${!pids[@]}"; do
      kill -0 "${pids[i]}" 2>/dev/null && continue
      case ${names[i]} in
        "sangha one" | "sangha two")
          name=${names[i]#sangha }
          echo "${names[i]} (pid ${pids[i]}) stopped; starting it again" >&2
          start_instance "$name"
          pids[i]=$!
          wait_until_up "http://127.0.0.1:${instance_ports[$name]}" || { tail -n 20 "$work/$name.log" >&2; exit 1; }
          echo "${names[i]} is back: pid ${pids[i]}" >&2
          ;;
        *)
          echo "${names[i]} (pid ${pids[i]}) stopped; stopping the rest" >&2
          exit 1
          ;;
      esac
    done
  done
fi

# The benchmark: a browser's cookie, 50 friends and two profiles, then GET /profiles/1 straight
# at instance one and through nginx to both.
cookie="Cookie: $(seed "$base" "$work/cookies")"
cpu_seconds() { awk '{ printf "%.1f", ($14 + $15) / 100 }' "/proc/$1/stat"; }
declare -A figures
failed=0
measure() {
  local label=$1 url=$2 line
  line=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "$cookie" -s scripts/wrk-report.lua "$url" \
    | grep '^RESULT')
  figures[$label]=$(sed -E 's/.*rps=([0-9]+) p50_ms=([0-9.]+) p99_ms=([0-9.]+) status_errors=([0-9]+) socket_errors=([0-9]+).*/\1 \2 \3 \4 \5/' \
    <<<"$line")
}
measure one "http://127.0.0.1:${instance_ports[one]}/profiles/1"
before_one=$(cpu_seconds "${pids[1]}")
before_two=$(cpu_seconds "${pids[2]}")
measure nginx "$base/profiles/1"
used_one=$(awk -v a="$before_one" -v b="$(cpu_seconds "${pids[1]}")" 'BEGIN { printf "%.1f", b - a }')
used_two=$(awk -v a="$before_two" -v b="$(cpu_seconds "${pids[2]}")" 'BEGIN { printf "%.1f", b - a }')

echo "# Sangha cluster benchmark, $(date -u +%Y-%m-%d), $(nproc) cores"
echo
echo "GET /profiles/1, wrk $CONNECTIONS connections, $THREADS threads, $DURATION; PostgreSQL, one FriendService."
echo
echo "| target | requests/s | p50 ms | p99 ms | errors |"
echo "| --- | ---: | ---: | ---: | ---: |"
for label in one nginx; do
  read -r rps p50 p99 status socket <<<"${figures[$label]}"
  case $label in
    one) title="one instance, straight" ;;
    nginx) title="two instances behind nginx" ;;
  esac
  echo "| $title | $rps | $p50 | $p99 | $((status + socket)) |"
  if [ "$label" = nginx ] && [ $((status + socket)) -gt 0 ]; then
    echo "FAILED: $status status errors and $socket socket errors through nginx" >&2
    failed=1
  fi
done
read -r one_rps _ <<<"${figures[one]}"
read -r nginx_rps _ <<<"${figures[nginx]}"
echo
echo "Two behind nginx ÷ one instance: $(awk -v a="$nginx_rps" -v b="$one_rps" 'BEGIN { printf "%.2f", a / b }')"
echo "CPU seconds during the nginx run: instance one $used_one, instance two $used_two."
if [ "$failed" != 0 ]; then exit 1; fi
