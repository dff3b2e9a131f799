#!/usr/bin/env bash
# make bench, the flood: a real sign-in while FLOOD connections post sign-ins for usernames that
# do not exist, as from many addresses (--address-limit 0), on the release build with bcrypt at
# its real cost (12). Ada signs in again and again on one connection, alone, then with the flood
# from her browser (its device cookie: the hashing queue serves it first), then with the flood
# without the cookie. Prints each p99 (medians of ROUNDS), how the flood was answered (401:
# hashed and wrong; 503: the queue was full) and whether the goal, ≤ 1 s with the cookie, is met.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-3}
FLOOD=${FLOOD:-40}
BIN=.build/release/sangha

source scripts/common.sh

work=$(mktemp -d)
port=$(free_port)
"$BIN" serve --port "$port" --friend-service-port "$(free_port)" --data-dir "$work/data" --log-level warning \
  --sign-up open --address-limit 0 >"$work/sangha.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
base="http://127.0.0.1:$port"
wait_until_up "$base"

# Ada signs up: her browser keeps its device cookie. The sign-in form's token (no session).
signed_out_token=$(form_token "$base/sign-in" "$work/jar")
csrf=$(awk '$6 == "sangha_csrf" { print $7 }' "$work/jar")
curl -fs -b "$work/jar" -c "$work/ada.jar" -o /dev/null \
  -d "name=Ada&username=ada&password=$BENCH_PASSWORD&_csrf=$signed_out_token" "$base/sign-up"
device=$(awk '$6 == "sangha_device" { print $7 }' "$work/ada.jar")
[ -n "$device" ] || { echo "signing Ada up gave no device cookie" >&2; exit 1; }

# Each flood its own usernames (PREFIX), so none of them reaches the five failures of a username.
cat >"$work/flood.lua" <<LUA
local next = 0
request = function()
  next = next + 1
  return wrk.format("POST", "/sign-in", {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Cookie"] = "sangha_csrf=$csrf",
  }, "username=PREFIX" .. next .. "&password=guess-guess-guess&_csrf=$signed_out_token")
end
-- Each thread counts its answers; done() (in a state of its own) adds them up.
local threads = {}
setup = function(thread) table.insert(threads, thread) end
init = function() wrong, busy = 0, 0 end
response = function(status)
  if status == 401 then wrong = wrong + 1 elseif status == 503 then busy = busy + 1 end
end
done = function(summary)
  local w, b = 0, 0
  for _, thread in ipairs(threads) do w = w + thread:get("wrong"); b = b + thread:get("busy") end
  io.write(string.format("FLOOD requests=%d 401=%d 503=%d other=%d\n", summary.requests, w, b, summary.requests - w - b))
end
LUA

# sign_in COOKIE: wrk, one connection, Ada's sign-in with COOKIE; its RESULT line.
sign_in() {
  {
    echo 'wrk.method = "POST"'
    echo "wrk.body = \"username=ada&password=$BENCH_PASSWORD&_csrf=$signed_out_token\""
    echo 'wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"'
    echo "wrk.headers[\"Cookie\"] = \"$1\""
    cat scripts/wrk-report.lua
  } >"$work/ada.lua"
  wrk -t1 -c1 -d"$DURATION" --latency --timeout 30s -s "$work/ada.lua" "$base/sign-in" | grep '^RESULT'
}

declare -A p99 statuses
labels=(quiet device none)
for round in $(seq "$ROUNDS"); do
  for label in "${labels[@]}"; do
    cookie="sangha_csrf=$csrf"
    [ "$label" != none ] && cookie="$cookie; sangha_device=$device"
    if [ "$label" != quiet ]; then
      sed "s/PREFIX/nobody-$round-$label-/" "$work/flood.lua" >"$work/flood-run.lua"
      wrk -t2 -c"$FLOOD" -d"$((${DURATION%s} + 4))s" --timeout 30s -s "$work/flood-run.lua" "$base/sign-in" \
        >"$work/flood.txt" &
      flood=$!
      sleep 2
    fi
    line=$(sign_in "$cookie")
    if [ "$label" != quiet ]; then
      wait "$flood"
      statuses[$label]=$(grep '^FLOOD' "$work/flood.txt")
    fi
    p99[$label]+="$(wrk_figures "$line")"
    if [ "$label" != none ] && ! grep -q 'status_errors=0 socket_errors=0' <<<"$line"; then
      echo "FAILED: Ada's sign-in ($label): $line" >&2
      exit 1
    fi
  done
done

quiet=$(median 3 <<<"${p99[quiet]}")
device_p99=$(median 3 <<<"${p99[device]}")
none=$(median 3 <<<"${p99[none]}")
met=$(awk -v v="$device_p99" 'BEGIN { print (v <= 1000) ? "met" : "NOT met" }')
echo
echo "## The flood: a real sign-in while $FLOOD connections sign in as no one (bcrypt 12, $DURATION × $ROUNDS rounds, medians)"
echo
echo "| Ada's sign-in | p50 ms | p99 ms |"
echo "| --- | ---: | ---: |"
echo "| alone | $(median 2 <<<"${p99[quiet]}") | $quiet |"
echo "| with the flood, from her browser (device cookie) | $(median 2 <<<"${p99[device]}") | $device_p99 |"
echo "| with the flood, without the cookie (a quick 503) | $(median 2 <<<"${p99[none]}") | $none |"
echo
echo "Goal: with the device cookie, p99 ≤ 1000 ms: $met ($device_p99 ms, $(ratio "$device_p99" "$quiet") × alone)."
echo "The flood's answers in the last rounds: ${statuses[device]} (with the cookie); ${statuses[none]} (without)."
