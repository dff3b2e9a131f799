#!/usr/bin/env bash
# The end of make bench: many instances and large data, with the release server.
#  1. GET /profiles/1 with PostgreSQL (a throwaway server from scripts/test-postgres.sh, as
#     instances sharing one database would use) against SQLite, both seeded alike.
#  2. The paged pages (/friends, /profiles, /history) with small data (one full page of each:
#     50 friends, 50 profiles, 50 sessions) against large data (5,000 friends, 1,000 profiles, 10,000 sessions, seeded by
#     scripts/seed.py), and a page in the middle of the large lists, which should cost what the
#     first does: a page renders 50 rows however many there are.
#  3. The groups list and a group's page (its members' practice this week) on each instance, a
#     group sit's page, and GET /clock (a sit's page reads it 8 times).
#  4. A practice log of years on the PostgreSQL instance: 10,000 sessions over 1,100 days
#     imported (a streak of three years); the export streams every session. (Home, /history and
#     /me with such a log, on both backends, are scripts/bench.sh's.)
# Each wrk target runs ROUNDS times, interleaved, and its median is reported with the ratios;
# last, the goals, each with what this run measured and whether it met it. Any wrk status or
# socket error (a timeout is one: wrk gives up on a request after 2 s) fails the script, after
# the tables.
set -euo pipefail
shopt -s inherit_errexit  # a failing curl in `seed` stops the script
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-3}
BIN=.build/release/sangha

source scripts/common.sh

work=$(mktemp -d)
chmod 711 "$work"  # PostgreSQL runs as the postgres user, in $work/postgres
pg_dir="$work/postgres"
pg_started=false
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if $pg_started; then scripts/test-postgres.sh stop "$pg_dir" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# start_sangha NAME ARGS…: a release server with its own ports and data folder; sets
# base_NAME's URL in `bases` and its process id in `server_pids`.
declare -A bases server_pids
start_sangha() {
  local name=$1
  shift
  local port friend_port
  port=$(free_port)
  friend_port=$(free_port)
  "$BIN" serve --port "$port" --friend-service-port "$friend_port" --data-dir "$work/data-$name" \
    --sign-up open --address-limit 0 \
    --log-level warning "$@" &
  pids+=($!)
  server_pids[$name]=$!
  bases[$name]="http://127.0.0.1:$port"
  wait_until_up "${bases[$name]}"
}

echo "## Many instances and large data"
echo

pg_started=true  # before: a start that times out may still leave a server to stop
database_url=$(scripts/test-postgres.sh start "$pg_dir")

start_sangha sqlite
start_sangha postgres --database-url "$database_url"
start_sangha large

# Seed every instance alike (50 friends, profiles 1 and 2), each with its own browser cookie;
# then one full page of each list on the small one (the SQLite one), so that small and large
# render the same 50 rows, and the large data on the large one.
declare -A cookies
for name in sqlite postgres large; do
  cookies[$name]=$(seed "${bases[$name]}" "$work/cookies-$name")
done
small_seeding=$(python3 scripts/seed.py "${bases[sqlite]}" --cookie "${cookies[sqlite]}" --profiles 48 --sessions 50)
large_seeding=$(python3 scripts/seed.py "${bases[large]}" --cookie "${cookies[large]}" --friends 4950 --profiles 998 --sessions 10000)
postgres_seeding=$(python3 scripts/seed.py "${bases[postgres]}" --cookie "${cookies[postgres]}" --log-sessions 10000 --log-days 1100)
# A group of one on each instance: its page reads the members' practice this week (on the
# large one, 10,000 sessions).
for name in sqlite postgres large; do
  curl -fs -o /dev/null -H "Cookie: ${cookies[$name]}" \
    -d "name=Bench+group&_csrf=$(form_token_of "${bases[$name]}" "${cookies[$name]}")" "${bases[$name]}/groups"
done
# A weekly sit of the group, from tomorrow, with profile 1: its page is the sit's timeline.
tomorrow=$(date -d tomorrow +%Y-%m-%dT19:00)
for name in sqlite postgres; do
  curl -fs -o /dev/null -H "Cookie: ${cookies[$name]}" \
    -d "profile=1&startsAt=$tomorrow&weekly=on&_csrf=$(form_token_of "${bases[$name]}" "${cookies[$name]}")" \
    "${bases[$name]}/groups/1/sits"
done
echo "Data: each instance gets \`seed\` (50 friends, profiles 1 and 2) and a group of one, then scripts/seed.py adds the rest."
echo
echo "- small (the SQLite instance), 50 friends, 50 profiles, 50 sessions: $small_seeding"
echo "- large, 5,000 friends, 1,000 profiles, 10,000 sessions over the last 47 hours (POST /sessions records 48): $large_seeding"
echo "- PostgreSQL: 10,000 sessions over the 1,100 days up to yesterday (a streak of 1,100 days), imported: $postgres_seeding"

# Each target: label|instance|path.
targets=(
  "GET /profiles/1, SQLite|sqlite|/profiles/1"
  "GET /profiles/1, PostgreSQL|postgres|/profiles/1"
  "GET /friends, small|sqlite|/friends"
  "GET /friends, large|large|/friends"
  "GET /friends?page=50, large|large|/friends?page=50"
  "GET /profiles, small|sqlite|/profiles"
  "GET /profiles, large|large|/profiles"
  "GET /profiles?page=10, large|large|/profiles?page=10"
  "GET /history, small|sqlite|/history"
  "GET /history, large|large|/history"
  "GET /history?page=100, large|large|/history?page=100"
  "GET /groups, SQLite|sqlite|/groups"
  "GET /groups/1, SQLite|sqlite|/groups/1"
  "GET /groups/1, PostgreSQL|postgres|/groups/1"
  "GET /groups/1, large (10,000 sessions this week)|large|/groups/1"
  "GET /groups/1/sits/1 (a sit's page), SQLite|sqlite|/groups/1/sits/1"
  "GET /groups/1/sits/1 (a sit's page), PostgreSQL|postgres|/groups/1/sits/1"
  "GET /clock|sqlite|/clock"
  "GET /history/export.csv, large (10,000 sessions)|large|/history/export.csv"
  "GET /history/export.csv, a 3-year log, PostgreSQL|postgres|/history/export.csv"
)

# Page sizes: the large pages must stay the size of the small ones (50 rows, not all).
echo
echo "## Page sizes (bytes)"
echo
echo "| page | small | large |"
echo "| --- | ---: | ---: |"
page_bytes() { curl -fs -b "$work/cookies-$1" "${bases[$1]}$2" | wc -c; }
for path in /friends /profiles /history; do
  echo "| $path | $(page_bytes sqlite "$path") | $(page_bytes large "$path") |"
done
for path in "/friends?page=50" "/profiles?page=10" "/history?page=100"; do
  echo "| $path | – | $(page_bytes large "$path") |"
done

declare -A results
failures=()
max_rss=0
for round in $(seq "$ROUNDS"); do
  for target in "${targets[@]}"; do
    IFS='|' read -r label name path <<<"$target"
    line=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "Cookie: ${cookies[$name]}" \
      -s scripts/wrk-report.lua "${bases[$name]}$path" | grep '^RESULT')
    # Errors fail the script, at its end: the tables still show what every target did.
    if ! grep -q 'status_errors=0 socket_errors=0' <<<"$line"; then
      failures+=("$label (round $round): ${line#RESULT }")
    fi
    results["$label"]+=$(wrk_figures "$line")
    rss=$(rss_mib "${server_pids[$name]}")
    max_rss=$(awk -v a="$max_rss" -v b="$rss" 'BEGIN { print (b > a) ? b : a }')
  done
done

declare -A rps
echo
echo "## Throughput (wrk, $CONNECTIONS connections, $THREADS threads, $DURATION × $ROUNDS rounds, medians)"
echo
throughput_table "${targets[@]}"

# later[page]: the page in the middle of the large list.
declare -A later=([/friends]="/friends?page=50" [/profiles]="/profiles?page=10" [/history]="/history?page=100")
echo
echo "## Ratios"
echo
echo "| ratio | value |"
echo "| --- | ---: |"
echo "| GET /profiles/1, PostgreSQL ÷ SQLite | $(ratio "${rps["GET /profiles/1, PostgreSQL"]}" "${rps["GET /profiles/1, SQLite"]}") |"
echo "| GET /profiles (50 rows) ÷ GET /profiles/1, SQLite | $(ratio "${rps["GET /profiles, small"]}" "${rps["GET /profiles/1, SQLite"]}") |"
echo "| GET /groups ÷ GET /profiles/1, SQLite | $(ratio "${rps["GET /groups, SQLite"]}" "${rps["GET /profiles/1, SQLite"]}") |"
echo "| GET /groups/1 ÷ GET /profiles/1, SQLite | $(ratio "${rps["GET /groups/1, SQLite"]}" "${rps["GET /profiles/1, SQLite"]}") |"
echo "| GET /groups/1, PostgreSQL ÷ SQLite | $(ratio "${rps["GET /groups/1, PostgreSQL"]}" "${rps["GET /groups/1, SQLite"]}") |"
echo "| GET /groups/1/sits/1 ÷ GET /profiles/1, SQLite | $(ratio "${rps["GET /groups/1/sits/1 (a sit's page), SQLite"]}" "${rps["GET /profiles/1, SQLite"]}") |"
echo "| GET /groups/1/sits/1, PostgreSQL ÷ SQLite | $(ratio "${rps["GET /groups/1/sits/1 (a sit's page), PostgreSQL"]}" "${rps["GET /groups/1/sits/1 (a sit's page), SQLite"]}") |"
echo "| GET /clock ÷ GET /profiles/1, SQLite | $(ratio "${rps["GET /clock"]}" "${rps["GET /profiles/1, SQLite"]}") |"
echo "| GET /groups/1, large ÷ SQLite | $(ratio "${rps["GET /groups/1, large (10,000 sessions this week)"]}" "${rps["GET /groups/1, SQLite"]}") |"
for page in /friends /profiles /history; do
  small=${rps["GET $page, small"]}
  large=${rps["GET $page, large"]}
  middle=${rps["GET ${later[$page]}, large"]}
  echo "| GET $page, large ÷ small | $(ratio "$large" "$small") |"
  echo "| GET ${later[$page]}, large ÷ GET $page, small | $(ratio "$middle" "$small") |"
  echo "| GET ${later[$page]} ÷ GET $page, both large | $(ratio "$middle" "$large") |"
done
echo
echo "Largest RSS of a sangha serve under load: $max_rss MiB"

# The goals, each with what this run measured.
verdict() { awk -v v="$1" -v op="$2" -v g="$3" 'BEGIN { ok = (op == ">=") ? v >= g : v < g; print ok ? "met" : "NOT met" }'; }
goal() { echo "| $1 | $2 | $(verdict "$2" ">=" "$3") |"; }
echo
echo "### Goals"
echo
echo "| goal | measured | |"
echo "| --- | ---: | --- |"
goal "GET /profiles/1: PostgreSQL ≥ 0.5 × SQLite" \
  "$(ratio "${rps["GET /profiles/1, PostgreSQL"]}" "${rps["GET /profiles/1, SQLite"]}")" 0.5
goal "GET /profiles (50 rows) ≥ 0.5 × the editor, SQLite" \
  "$(ratio "${rps["GET /profiles, small"]}" "${rps["GET /profiles/1, SQLite"]}")" 0.5
for page in /friends /profiles /history; do
  small=${rps["GET $page, small"]}
  goal "GET $page: large ≥ 0.5 × small" "$(ratio "${rps["GET $page, large"]}" "$small")" 0.5
  goal "GET ${later[$page]} (large) ≥ 0.5 × GET $page (small)" "$(ratio "${rps["GET ${later[$page]}, large"]}" "$small")" 0.5
done
echo "| no wrk status or socket errors | ${#failures[@]} failed runs | $( ((${#failures[@]} == 0)) && echo met || echo "NOT met") |"
if ((${#failures[@]} > 0)); then
  echo
  for failure in "${failures[@]}"; do echo "FAILED: $failure"; done
  exit 1
fi
