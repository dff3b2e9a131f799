#!/usr/bin/env bash
# make bench, first: what building costs. Clones HEAD into a temporary folder and times, there:
#   1. `make release` of the fresh clone: packages resolved, every module compiled (a new
#      machine's `make run` before it serves);
#   2. `make release` again with nothing changed (a second `make run` before it serves);
#   3. the built server's start until /health answers.
# Then the release binary's size, and its largest parts by the modules their symbols belong to.
# KEEP_CLONE=1 keeps the folder (its path is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

clone=$(mktemp -d /tmp/sangha-fresh-clone.XXXXXX)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  [ "${KEEP_CLONE:-0}" = 1 ] && echo "Kept $clone" >&2 || rm -rf "$clone"
}
trap cleanup EXIT

git clone -q . "$clone/sangha"
cd "$clone/sangha"

seconds() { local start=$1; python3 -c "import time; print(f'{time.time() - $start:.1f}')"; }
now() { python3 -c 'import time; print(time.time())'; }

echo "## Building a fresh clone of $(git rev-parse --short HEAD) (nproc $(nproc))"
start=$(now)
make release >"$clone/first.log" 2>&1 || { tail -30 "$clone/first.log"; exit 1; }
first=$(seconds "$start")
start=$(now)
make release >"$clone/second.log" 2>&1
second=$(seconds "$start")

port=$(free_port)
data=$(mktemp -d "$clone/data.XXXXXX")
start=$(now)
.build/release/sangha serve --port "$port" --friend-service-port "$(free_port)" --data-dir "$data" \
  >"$clone/serve.log" 2>&1 &
server=$!
wait_until_up "http://127.0.0.1:$port"
up=$(seconds "$start")

binary=.build/release/sangha
size=$(stat -c %s "$binary")
echo
echo "| step | seconds |"
echo "| --- | ---: |"
echo "| make release, fresh clone | $first |"
echo "| make release, nothing changed | $second |"
echo "| sangha serve until /health answers | $up |"
echo
echo "Release binary: $((size / 1024 / 1024)) MiB ($size bytes)"
# Sections, then the text by the module a symbol's mangled name starts with (Swift's s<len><Module>).
size -A "$binary" | awk '$2 > 1048576 { printf "  section %-22s %6.1f MiB\n", $1, $2 / 1048576 }'
nm --size-sort -S "$binary" 2>/dev/null | python3 -c '
import re, sys, collections
sizes = collections.Counter()
for line in sys.stdin:
    parts = line.split()
    if len(parts) < 4: continue
    size, name = int(parts[1], 16), parts[3]
    match = re.match(r"\$s(\d+)", name)
    if match:
        length = int(match.group(1)); start = match.end()
        module = name[start:start + length]
    elif name.startswith("_Z"): module = "(C++)"
    else: module = "(C and others)"
    sizes[module] += size
total = sum(sizes.values())
for module, size in sizes.most_common(12):
    print(f"  symbols of {module:<28} {size / 1048576:6.1f} MiB")
print(f"  all sized symbols            {total / 1048576:6.1f} MiB")
'
