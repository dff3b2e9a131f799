#!/usr/bin/env bash
# make bench: render times (the compiled templates against swift-mustache, which must write the
# same bytes, and against copying those bytes), then wrk against the release server: every page a
# signed-in person opens, home, /history and /me for three people (no sessions, a log of 1,000
# sessions over a year, a log of 10,000 over three years), a group's page with five sits and ten
# members, the editor, home and /history again in German (the same person with the `lang` cookie),
# and as references the same page bytes from memory (the server's ceiling), the
# FriendService's own GET /listFriends, nginx serving the same bytes as a static file and
# /health (the framework's floor). Every page is measured on SQLite and, in the same run, on
# PostgreSQL (a throwaway server, or DATABASE_URL's), seeded alike. Each wrk target runs ROUNDS
# times, interleaved, and its median is reported with the ratios; last, the performance goals,
# each with what this run measured and whether it met it.
#
#   BACKENDS=sqlite scripts/bench.sh        # SQLite only (no PostgreSQL goals)
#   ONLY='history|/profiles/1$' scripts/bench.sh  # only the targets whose label matches (the
#                                           # references always run); goals of the others are
#                                           # shown as not measured
#   RENDER=0 scripts/bench.sh               # without the render times
#
# A page that does not answer 200, or does not show what its person's data must show, stops the
# run before anything is measured; a goal whose page has no figure stops it after the tables.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-3}
BACKENDS=${BACKENDS:-sqlite postgres}
ONLY=${ONLY:-}
RENDER=${RENDER:-1}
BIN=${BIN:-.build/release/sangha}

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

uses() { [[ " $BACKENDS " == *" $1 "* ]]; }

echo "# Sangha benchmark, $(date -u +%Y-%m-%d), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
if [ "$RENDER" = 1 ]; then
  echo
  echo "## Render time (release build, median of 15 batches)"
  echo
  .build/release/sangha-bench . | tee "$work/render.txt"
fi

# start_sangha NAME ARGS…: a release server with its own ports and data folder; sets bases[NAME],
# friend_ports[NAME] and server_pids[NAME].
declare -A bases friend_ports server_pids
start_sangha() {
  local name=$1
  shift
  local port friend_port
  port=$(free_port)
  friend_port=$(free_port)
  "$BIN" serve --port "$port" --friend-service-port "$friend_port" --data-dir "$work/data-$name" \
    --sign-up open --address-limit 0 --log-level warning "$@" &
  pids+=($!)
  server_pids[$name]=$!
  bases[$name]="http://127.0.0.1:$port"
  friend_ports[$name]=$friend_port
  wait_until_up "${bases[$name]}"
}

uses sqlite || { echo "BACKENDS must include sqlite: every goal is measured against it" >&2; exit 1; }
start_sangha sqlite
if uses postgres; then
  if [ -z "${DATABASE_URL:-}" ]; then
    pg_started=true  # before: a start that times out may still leave a server to stop
    DATABASE_URL=$(scripts/test-postgres.sh start "$pg_dir")
  fi
  start_sangha postgres --database-url "$DATABASE_URL"
fi

declare -A cookie feeds
echo
echo "## Data"
echo
for backend in $BACKENDS; do seed_everyone "$backend" "${bases[$backend]}"; done

# The friends page's and the heaviest editor's own bytes, served again from memory through the
# app's own middleware (sangha-bench serve-pages, at /_bench/NAME) and, the friends page, by nginx.
base=${bases[sqlite]}
mkdir -p "$work/static"
curl -fs -H "Cookie: ${cookie[sqlite/bench]}" "$base/friends" >"$work/static/friends.html"
curl -fs -H "Cookie: ${cookie[sqlite/bench]}" "$base/profiles/2" >"$work/static/editor.html"
grep -q 'Cool Down duration' "$work/static/editor.html"  # the editor with both sections on
chmod 755 "$work/static" && chmod 644 "$work/static/"*.html  # nginx's workers read them
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

# The embedded FriendService keeps one list per bearer token, and a person's token never leaves
# Sangha: its own target reads a list of 50 friends kept under a token of the bench's.
service_auth="Authorization: Bearer bench-friend-service-token"
letters=(A B C D E F G H I J K L M N O P Q R S T U V W X Y Z)
for i in $(seq 50); do
  curl -fs -o /dev/null -H "$service_auth" -H 'Content-Type: application/json' \
    -d "{\"firstname\":\"Friend\",\"lastname\":\"${letters[$((i % 26))]}${letters[$((i / 26))]}\",\"phonenumber\":\"55501$i\"}" \
    "http://127.0.0.1:${friend_ports[sqlite]}/addFriend"
done

# The pages, each on every backend: label|who|path. The editor (GET /profiles/1) is what every
# page is measured against; /health is the framework's floor.
pages=(
  "GET /friends (50 friends)|bench|/friends"
  "GET /profiles/1|bench|/profiles/1"
  "GET /profiles/2 (heaviest editor)|bench|/profiles/2"
  "GET / (home, no sessions)|bench|/"
  "GET / (home, 1,000 sessions)|log1000|/"
  "GET / (home, a 3-year log)|log3y|/"
  "GET /history (no sessions)|bench|/history"
  "GET /history (1,000 sessions)|log1000|/history"
  "GET /history (a 3-year log)|log3y|/history"
  "GET /me (no sessions)|bench|/me"
  "GET /me (1,000 sessions)|log1000|/me"
  "GET /me (a 3-year log)|log3y|/me"
  "GET /profiles|bench|/profiles"
  "GET /profiles/1/sit (sitting page)|bench|/profiles/1/sit"
  "GET /settings|bench|/settings"
  "GET /groups (20 groups)|bench|/groups"
  "GET /groups/1 (a group's page: 5 sits, 10 members)|bench|/groups/1"
  "GET /groups/1/sits/1 (a sit's page)|bench|/groups/1/sits/1"
  "GET /admin|bench|/admin"
  "GET the calendar feed (20 groups, 100 sits)|feed|"
  "GET /profiles/1, in German|bench-de|/profiles/1"
  "GET / (home, 1,000 sessions), in German|log1000-de|/"
  "GET /history (1,000 sessions), in German|log1000-de|/history"
  "GET /health (the framework's floor)|bench|/health"
)
# What a page must show with its person's data (a page that answers 200 without it measures
# something else): label|fixed string.
expected=(
  "GET /history (1,000 sessions)|<dt>Sessions</dt><dd>1000</dd>"
  "GET /history (a 3-year log)|<dt>Sessions</dt><dd>10000</dd>"
  "GET /me (1,000 sessions)|1000 sessions"
  "GET /me (a 3-year log)|10000 sessions"
  "GET / (home, 1,000 sessions)|365 days"
  "GET / (home, a 3-year log)|1100 days"
  "GET /groups/1 (a group's page: 5 sits, 10 members)|Member 7"
  "GET /profiles/1, in German|<html lang=\"de\""
  "GET / (home, 1,000 sessions), in German|<html lang=\"de\""
  "GET /history (1,000 sessions), in German|<html lang=\"de\""
)
suffix() { [ "$1" = sqlite ] && echo "" || echo ", PostgreSQL"; }
selected() { [ -z "$ONLY" ] || [[ $1 =~ $ONLY ]]; }

# Every target: label|url|header. The references run whatever ONLY says.
targets=(
  "same bytes from memory|http://127.0.0.1:$pages_port/_bench/friends.html|Accept: text/html"
  "heaviest editor's bytes from memory|http://127.0.0.1:$pages_port/_bench/editor.html|Accept: text/html"
  "FriendService GET /listFriends|http://127.0.0.1:${friend_ports[sqlite]}/listFriends|$service_auth"
  "nginx static file|http://127.0.0.1:$nginx_port/friends.html|Accept: text/html"
)
declare -A page_url page_header
for backend in $BACKENDS; do
  for page in "${pages[@]}"; do
    IFS='|' read -r label who path <<<"$page"
    label+=$(suffix "$backend")
    case $who in
      feed) url=${feeds[$backend]} header="Accept: text/calendar" ;;  # a calendar app sends no cookie
      none) url=${bases[$backend]}$path header="Accept: text/html" ;;
      # The same person's page in German: the language picker's cookie.
      *-de) url=${bases[$backend]}$path header="Cookie: ${cookie[$backend/${who%-de}]}; lang=de" ;;
      *) url=${bases[$backend]}$path header="Cookie: ${cookie[$backend/$who]}" ;;
    esac
    page_url[$label]=$url
    page_header[$label]=$header
    selected "$label" && targets+=("$label|$url|$header")
  done
done

# Every page measured is there (a 404 or a redirect would be measured as fast), and shows its
# person's data.
for target in "${targets[@]}"; do
  IFS='|' read -r label url header <<<"$target"
  status=$(curl -s -o "$work/page" -w '%{http_code}' -H "$header" "$url")
  [ "$status" = 200 ] || { echo "FAILED: $label answered $status, not 200" >&2; exit 1; }
  for check in "${expected[@]}"; do
    [ "${label%, PostgreSQL}" = "${check%%|*}" ] || continue
    grep -qF "${check#*|}" "$work/page" || { echo "FAILED: $label does not show \"${check#*|}\"" >&2; exit 1; }
  done
done

echo
echo "## Page sizes (bytes)"
echo
echo "| page | SQLite | PostgreSQL |"
echo "| --- | ---: | ---: |"
declare -A bytes
for page in "${pages[@]}"; do
  label=${page%%|*}
  [[ $label == *"/health"* || $label == *"calendar"* ]] && continue
  row="| $label"
  for backend in sqlite postgres; do
    key=$label$(suffix "$backend")
    if uses "$backend"; then
      bytes[$key]=$(curl -fs -H "${page_header[$key]}" "${page_url[$key]}" | wc -c)
      row+=" | ${bytes[$key]}"
    else
      row+=" | –"
    fi
  done
  echo "$row |"
done

declare -A results max_rss max_anon
for round in $(seq "$ROUNDS"); do
  for target in "${targets[@]}"; do
    IFS='|' read -r label url header <<<"$target"
    line=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "$header" -s scripts/wrk-report.lua "$url" \
      | grep '^RESULT')
    if ! grep -q 'status_errors=0 socket_errors=0' <<<"$line"; then
      echo "FAILED: $label: $line" >&2
      exit 1
    fi
    results["$label"]+=$(wrk_figures "$line")
    for backend in $BACKENDS; do
      rss=$(rss_mib "${server_pids[$backend]}")
      max_rss[$backend]=$(awk -v a="${max_rss[$backend]:-0}" -v b="$rss" 'BEGIN { print (b > a) ? b : a }')
      anon=$(rss_anon_mib "${server_pids[$backend]}")
      max_anon[$backend]=$(awk -v a="${max_anon[$backend]:-0}" -v b="$anon" 'BEGIN { print (b > a) ? b : a }')
    done
  done
done

declare -A rps
echo
echo "## Throughput (wrk, $CONNECTIONS connections, $THREADS threads, $DURATION × $ROUNDS rounds, medians)"
echo
throughput_table "${targets[@]}"

# Every label a goal may name: the references, and each page on each backend.
declare -A known
for target in "${targets[@]:0:4}"; do known[${target%%|*}]=1; done
for page in "${pages[@]}"; do
  known[${page%%|*}]=1
  known[${page%%|*}, PostgreSQL]=1
done
# measured LABEL…: whether every LABEL was measured in this run. A label no target has (a goal
# naming a page the bench does not list), or a page that should have been measured and has no
# figure, stops the run; a page left out by ONLY or BACKENDS is not measured.
measured() {
  local label
  for label in "$@"; do
    [ -n "${results[$label]:-}" ] && continue
    [ -n "${known[$label]:-}" ] || { echo "FAILED: no page \"$label\" is listed" >&2; exit 1; }
    if [ -n "${page_url[$label]:-}" ] && selected "$label"; then
      echo "FAILED: \"$label\" was listed but has no figure" >&2
      exit 1
    fi
    return 1
  done
}
figure() { echo "${rps[$1]}"; }
spread() {
  awk -v a="$(median 3 <<<"${results[$1]}")" -v b="$(median 2 <<<"${results[$1]}")" \
    'BEGIN { printf "%.2f", a / (b > 0 ? b : 0.01) }'  # a median of 0.00 ms (rounded) counts as 0.01 ms
}
editor="GET /profiles/1"

echo
echo "## Each page"
echo
echo "| page | SQLite requests/s | ÷ the editor | p99 ÷ p50 | PostgreSQL requests/s | ÷ SQLite | p99 ÷ p50 |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for page in "${pages[@]}"; do
  label=${page%%|*}
  row="| $label"
  if measured "$label"; then
    to_editor=–
    if measured "$editor"; then to_editor=$(ratio "$(figure "$label")" "$(figure "$editor")"); fi
    row+=" | $(figure "$label") | $to_editor | $(spread "$label")"
  else
    row+=" | – | – | –"
  fi
  if measured "$label, PostgreSQL"; then
    to_sqlite=–
    if measured "$label"; then to_sqlite=$(ratio "$(figure "$label, PostgreSQL")" "$(figure "$label")"); fi
    row+=" | $(figure "$label, PostgreSQL") | $to_sqlite | $(spread "$label, PostgreSQL")"
  else
    row+=" | – | – | –"
  fi
  echo "$row |"
done

echo
echo "## Ratios"
echo
echo "| ratio | value |"
echo "| --- | ---: |"
same="same bytes from memory"
nginx="nginx static file"
if measured "GET /friends (50 friends)" "$editor"; then
  echo "| GET /friends ÷ same bytes from memory | $(ratio "$(figure "GET /friends (50 friends)")" "$(figure "$same")") |"
  echo "| GET /profiles/1 ÷ same bytes from memory | $(ratio "$(figure "$editor")" "$(figure "$same")") |"
  echo "| GET /friends ÷ GET /profiles/1 | $(ratio "$(figure "GET /friends (50 friends)")" "$(figure "$editor")") |"
  for label in "GET /friends (50 friends)" "$editor"; do
    echo "| $label ÷ nginx static | $(ratio "$(figure "$label")" "$(figure "$nginx")") |"
  done
fi
for label in "$same" "FriendService GET /listFriends"; do
  echo "| $label ÷ nginx static | $(ratio "$(figure "$label")" "$(figure "$nginx")") |"
done
echo
for backend in $BACKENDS; do
  echo "Largest RSS of sangha serve under load, $backend: ${max_rss[$backend]} MiB (${max_anon[$backend]} MiB of it allocated; the rest is the binary's and libraries' pages)"
done

# The performance goals, each with what this run measured.
verdict() { awk -v v="$1" -v op="$2" -v g="$3" 'BEGIN { ok = (op == ">=") ? v >= g : v < g; print ok ? "met" : "NOT met" }'; }
not_met=0
# goal TEXT VALUE OP BOUND [SHOWN]: a line of the goals' table.
goal() {
  local outcome
  outcome=$(verdict "$2" "$3" "$4")
  [ "$outcome" = met ] || not_met=$((not_met + 1))
  echo "| $1 | ${5:-$2} | $outcome |"
}
# goal_ratio TEXT A B BOUND: A ÷ B at least BOUND, when both were measured.
goal_ratio() {
  if measured "$2" "$3"; then
    goal "$1" "$(ratio "$(figure "$2")" "$(figure "$3")")" ">=" "$4"
  else
    echo "| $1 | – | not measured |"
  fi
}
echo
echo "## Goals"
echo
echo "| goal | measured | |"
echo "| --- | ---: | --- |"
if [ "$RENDER" = 1 ]; then
  render=$(sed -nE 's/^Largest compiled ÷ swift-mustache: ([0-9.]+)×$/\1/p' "$work/render.txt")
  goal "compiled render at most 0.5 × swift-mustache's, every page and size" "$render" "<" 0.5001 "${render}×"
fi
goal_ratio "GET /profiles/1 ≥ 0.7 × same bytes from memory" "$editor" "$same" 0.7
goal_ratio "GET /friends ≥ 0.5 × GET /profiles/1" "GET /friends (50 friends)" "$editor" 0.5
goal_ratio "GET /profiles/2 (heaviest editor) ≥ 0.7 × its bytes from memory" "GET /profiles/2 (heaviest editor)" \
  "heaviest editor's bytes from memory" 0.7
for page in "${pages[@]}"; do
  label=${page%%|*}
  [[ $label == "$editor" || $label == *"/health"* || $label == *"/friends"* || $label == *"heaviest"* ]] && continue
  goal_ratio "$label ≥ 0.5 × GET /profiles/1" "$label" "$editor" 0.5
done
goal_ratio "GET /profiles/1 ≥ 0.8 × GET /health" "$editor" "GET /health (the framework's floor)" 0.8
# A page in German costs at most 1.05 × the same page in English: its requests/s at least 1 ÷ 1.05.
for page in "${pages[@]}"; do
  label=${page%%|*}
  [[ $label == *", in German" ]] || continue
  goal_ratio "${label%, in German}: German ≥ 0.952 × English (costs ≤ 1.05 ×)" "$label" "${label%, in German}" 0.952
done
if uses postgres; then
  for page in "${pages[@]}"; do
    label=${page%%|*}
    goal_ratio "$label: PostgreSQL ≥ 0.5 × SQLite" "$label, PostgreSQL" "$label" 0.5
  done
fi
# No page stalls behind another's reads: each page's p99 within 3 × its median latency.
for backend in $BACKENDS; do
  for page in "${pages[@]}"; do
    label=${page%%|*}$(suffix "$backend")
    measured "$label" || continue
    goal "$label: p99 ≤ 3 × p50" "$(spread "$label")" "<" 3.0001 "$(spread "$label")×"
  done
done
history_bytes=${bytes["GET /history (1,000 sessions)"]}
goal "GET /history (1,000 sessions) at most 40 KB" "$history_bytes" "<" 40961 "$history_bytes bytes"
rss_mb=$(awk -v m="${max_rss[sqlite]}" 'BEGIN { printf "%.1f", m * 1.048576 }')
goal "RSS under load below 64 MB (SQLite)" "$rss_mb" "<" 64 "$rss_mb MB"
echo
echo "Goals not met: $not_met"
