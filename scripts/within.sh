#!/usr/bin/env bash
# Runs a test command with a time limit, so a hung test fails the run in minutes, saying where,
# instead of holding CI until its own limit.
#
#   scripts/within.sh SECONDS COMMAND…
#
# Past SECONDS: every thread's stack of each test process (with gdb, when it is installed), then
# the Swift tests that started and never ended, then the command is stopped; exits 124.
set -uo pipefail
limit=$1
shift
log=$(mktemp /tmp/sangha-within.XXXXXX)
trap 'rm -f "$log"' EXIT

# Its own process group, so that everything it started can be stopped together.
setsid "$@" > >(tee "$log") 2>&1 &
pid=$!
for _ in $(seq 1 "$limit"); do
  kill -0 "$pid" 2>/dev/null || { wait "$pid"; exit $?; }
  sleep 1
done

echo "within.sh: $* still running after $limit s" >&2
for test_pid in $(pgrep -f '\.xctest' || true); do
  if command -v gdb >/dev/null; then
    echo "--- every thread of $(tr '\0' ' ' </proc/"$test_pid"/cmdline | cut -c1-120)" >&2
    gdb -p "$test_pid" -batch -ex "thread apply all bt 25" 2>/dev/null | grep -E '^(Thread|#)' >&2
  fi
done
echo "--- Swift tests that started and did not end:" >&2
grep -o 'Test "[^"]*" started' "$log" | sed 's/ started$//' | sort >"$log.started"
grep -oE 'Test "[^"]*" (passed|failed|skipped)' "$log" | sed -E 's/ (passed|failed|skipped)$//' | sort -u >"$log.ended"
comm -23 "$log.started" "$log.ended" >&2
rm -f "$log.started" "$log.ended"
kill -TERM -- "-$pid" 2>/dev/null
sleep 5
kill -KILL -- "-$pid" 2>/dev/null
exit 124
