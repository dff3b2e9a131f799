#!/bin/sh
# A throwaway PostgreSQL server for the tests, on a free loopback port.
#
#   scripts/test-postgres.sh run COMMAND…   start a server, run COMMAND with
#                                           SANGHA_TEST_DATABASE_URL pointing at it, stop it
#   scripts/test-postgres.sh start DIR      start a server in DIR (new, empty); print its URL
#   scripts/test-postgres.sh stop DIR       stop the server in DIR by its process id, remove DIR
#   scripts/test-postgres.sh halt DIR       stop the server in DIR, keeping its data
#   scripts/test-postgres.sh resume DIR     start it again on the same port
#
# With SANGHA_TEST_DATABASE_URL already set, `run` uses that server and starts none. PostgreSQL
# refuses to run as root: as root, the server runs as the `postgres` user.
set -eu

bin_dir() {
  for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$candidate/initdb" ] && { echo "$candidate"; return; }
  done
  dirname "$(command -v initdb)"
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  dir=$1
  bin=$(bin_dir)
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  free_port >"$dir/port"
  resume "$dir"
  echo "postgres://postgres@127.0.0.1:$(cat "$dir/port")/postgres"
}

resume() {
  dir=$1
  port=$(cat "$dir/port")
  as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start \
    </dev/null >/dev/null 2>&1 \
    || { cat "$dir/server.log" >&2; exit 1; }
}

# Stops the server by the process id in its pid file: a fast shutdown (SIGINT), waited for.
halt() {
  dir=$1
  if [ -f "$dir/data/postmaster.pid" ]; then
    pid=$(head -n 1 "$dir/data/postmaster.pid")
    kill -INT "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
}

stop() {
  halt "$1"
  rm -rf "$1"
}

case "${1:-}" in
  start) start "$2" ;;
  stop) stop "$2" ;;
  halt) halt "$2" ;;
  resume) resume "$2" ;;
  run)
    shift
    if [ -n "${SANGHA_TEST_DATABASE_URL:-}" ]; then exec "$@"; fi
    dir=$(mktemp -d /tmp/sangha-postgres.XXXXXX)
    trap 'stop "$dir"' EXIT INT TERM
    SANGHA_TEST_DATABASE_URL=$(start "$dir") || { echo "PostgreSQL did not start (see above)" >&2; exit 1; }
    export SANGHA_TEST_DATABASE_URL
    "$@"
    ;;
  *) echo "usage: $0 run COMMAND… | start DIR | stop DIR" >&2; exit 2 ;;
esac
