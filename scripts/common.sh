# shellcheck shell=bash
# Shared by scripts/loadtest.sh, bench.sh, bench-people.sh, bench-scale.sh and cluster.sh.

# A command that fails inside $(…) fails the script too (a seed that could not sign up or add
# its friends stops the benchmark instead of measuring something else).
shopt -s inherit_errexit

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

rss_mib() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
# rss_anon_mib PID: the part of it the process allocated (the rest is its binary's and
# libraries' pages, which the kernel can drop and read again).
rss_anon_mib() { awk '/RssAnon/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

# wait_until_up URL: polls URL/health for up to 10 s.
wait_until_up() {
  for _ in $(seq 100); do curl -fs "$1/health" >/dev/null && return 0; sleep 0.1; done
  echo "sangha did not start" >&2
  return 1
}

# seed BASE JAR: signs a person up (a browser's CSRF and session cookies into JAR), then adds
# their 50 friends, a profile as it is made (/profiles/1) and one with Warm Up and Cool Down on
# and every sound enabled, the heaviest editor (/profiles/2). Prints the value of a Cookie
# header that is that person's browser.
seed() {
  local base=$1 jar=$2
  # A person first: every page but sign-up and sign-in needs one.
  local token
  sign_up_person "$base" "$jar" bench "Bench Person" >/dev/null
  # Signed in: the token of the pages seen with this session.
  token=$(form_token "$base/profiles" "$jar")
  local letters=(A B C D E F G H I J K L M N O P Q R S T U V W X Y Z)
  for i in $(seq 50); do
    curl -fs -b "$jar" -o /dev/null \
      -d "firstname=Friend&lastname=${letters[$((i % 26))]}${letters[$((i / 26))]}&phonenumber=55501$i&_csrf=$token" \
      "$base/friends"
  done
  curl -fs -b "$jar" -o /dev/null -d "name=Profile&_csrf=$token" "$base/profiles"
  curl -fs -b "$jar" -o /dev/null -d "name=Full&_csrf=$token" "$base/profiles"
  local full="version=1&name=Full&main.duration=20:00"
  for segment in warmUp coolDown; do
    full+="&$segment.enabled=on&$segment.duration=05:00&$segment.repeat.interval=01:00&$segment.repeat.iterations=3"
    for sound in begin end repeat; do full+="&$segment.$sound.enabled=on&$segment.$sound.name=Bowl"; done
  done
  curl -fs -b "$jar" -o /dev/null -d "$full&_csrf=$token" "$base/profiles/2"
  browser_cookies "$jar"
}

# sign_up_person BASE JAR USERNAME NAME: signs a person up with BENCH_PASSWORD (their browser's
# cookies into JAR) and prints the value of a Cookie header that is that browser.
sign_up_person() {
  local base=$1 jar=$2 token session
  token=$(form_token "$base/sign-up" "$jar")
  curl -fs -b "$jar" -c "$jar" -o /dev/null \
    -d "name=${4// /+}&username=$3&password=${BENCH_PASSWORD}&_csrf=$token" "$base/sign-up"
  session=$(awk '$6 == "sangha_session" { print $7 }' "$jar")
  [ -n "$session" ] || { echo "signing $3 up at $base/sign-up failed" >&2; return 1; }
  browser_cookies "$jar"
}

# browser_cookies JAR: the Cookie header a browser sends after signing up, from curl's JAR: its
# form nonce, its session and its device cookie.
browser_cookies() {
  awk '$6 ~ /^sangha_(csrf|session|device)$/ { printf "%s%s=%s", sep, $6, $7; sep = "; " } END { print "" }' "$1"
}

# seed_everyone NAME BASE: on the server at BASE, the bench's person (their 50 friends, profiles
# 1 and 2, 20 groups of 5 sits each and their calendar link), two people with a practice log imported as a
# file (1,000 sessions over the 365 days up to yesterday; 10,000 over 1,100 days), and seven
# more people, so that group 1 has ten members: the bench's person hosts it, the others followed
# its invitation link. Sets cookie[NAME/WHO] (WHO: bench, log1000, log3y) and feeds[NAME], which
# the caller declares (`declare -A cookie feeds`); the browsers' cookie jars go into $work.
seed_everyone() {
  local name=$1 base=$2 jar="$work/cookies-$1"
  cookie[$name/bench]=$(seed "$base" "$jar")
  local token
  token=$(form_token "$base/groups" "$jar")
  # The person's groups: 20, with 5 sits each (every other one weekly), and their calendar link:
  # the feed of a person in 20 groups with 100 sits.
  local sit_start group sit weekly
  sit_start=$(date -u -d '+30 days' +%Y-%m-%dT07:00)
  for group in $(seq 20); do
    curl -fs -b "$jar" -o /dev/null -d "name=Group+$group&_csrf=$token" "$base/groups"
    for sit in $(seq 5); do
      weekly=$([ $((sit % 2)) = 0 ] && echo "&weekly=on" || true)
      curl -fs -b "$jar" -o /dev/null -d "profile=1&startsAt=$sit_start$weekly&_csrf=$token" "$base/groups/$group/sits"
    done
  done
  local feed
  feed=$(curl -fs -b "$jar" -d "_csrf=$token" "$base/settings/calendar" | grep -o 'http://[^"]*/calendar/[0-9a-f]*\.ics' | head -1)
  [ -n "$feed" ] || { echo "FAILED: no calendar link was made on $name" >&2; exit 1; }
  [ "$(curl -fs "$feed" | grep -c '^BEGIN:VEVENT')" = 100 ] || { echo "FAILED: the feed on $name has not 100 sits" >&2; exit 1; }
  feeds[$name]=$feed

  cookie[$name/log1000]=$(sign_up_person "$base" "$work/cookies-$name-log1000" daily "Daily Sitter")
  cookie[$name/log3y]=$(sign_up_person "$base" "$work/cookies-$name-log3y" years "Sitter Of Years")
  local seeded
  seeded=$(python3 scripts/seed.py "$base" --cookie "${cookie[$name/log1000]}" --log-sessions 1000 --log-days 365)
  echo "- $name, a year: $seeded"
  seeded=$(python3 scripts/seed.py "$base" --cookie "${cookie[$name/log3y]}" --log-sessions 10000 --log-days 1100)
  echo "- $name, three years: $seeded"

  local link member member_cookie
  link=$(curl -fs -b "$jar" -d "_csrf=$token" "$base/groups/1/invitations" | grep -o '/groups/invite/[A-Za-z0-9_-]*' | head -1)
  [ -n "$link" ] || { echo "FAILED: group 1 on $name gave no invitation link" >&2; exit 1; }
  join_group() {
    [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $1" -d "_csrf=$(form_token_of "$base" "$1")" "$base$link")" = 303 ] \
      || { echo "FAILED: joining group 1 on $name" >&2; exit 1; }
  }
  join_group "${cookie[$name/log1000]}"
  join_group "${cookie[$name/log3y]}"
  for member in $(seq 7); do
    member_cookie=$(sign_up_person "$base" "$work/cookies-$name-member$member" "member$member" "Member $member")
    join_group "$member_cookie"
  done
}

# form_token URL JAR: the form token of the page at URL seen with JAR's cookies (kept in JAR).
# It is the CSRF nonce signed together with the sign-in session, so it is read from the page, as
# a browser has it.
form_token() {
  curl -fs -b "$2" -c "$2" "$1" | grep -o 'name="_csrf" value="[^"]*"' | head -1 | sed -E 's/.*value="([^"]*)"/\1/'
}

# The password of the person `seed` signs up.
BENCH_PASSWORD=bench-password-1

# form_token_of BASE COOKIES: the form token of the pages BASE serves to a `seed` cookie header.
form_token_of() {
  curl -fs -H "Cookie: $2" "$1/profiles" | grep -o 'name="_csrf" value="[^"]*"' | head -1 \
    | sed -E 's/.*value="([^"]*)"/\1/'
}

# wrk_figures LINE: "RPS P50 P99;" from the RESULT line of scripts/wrk-report.lua, a round's
# entry in results[LABEL].
wrk_figures() { sed -E 's/.*rps=([0-9]+).*p50_ms=([0-9.]+) p99_ms=([0-9.]+).*/\1 \2 \3;/' <<<"$1"; }

# median FIELD: the median of field FIELD (1 rps, 2 p50, 3 p99) of the ";"-separated rounds on stdin.
median() { tr ';' '\n' | grep -v '^$' | awk -v f="$1" '{ print $f }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# throughput_table TARGET…: the medians of results[LABEL] for each "LABEL|…" target as a
# markdown table, keeping each median's requests/s in rps[LABEL] (both declared by the caller).
throughput_table() {
  local target label
  echo "| target | requests/s | p50 ms | p99 ms |"
  echo "| --- | ---: | ---: | ---: |"
  for target in "$@"; do
    label=${target%%|*}
    rps[$label]=$(median 1 <<<"${results[$label]}")
    echo "| $label | ${rps[$label]} | $(median 2 <<<"${results[$label]}") | $(median 3 <<<"${results[$label]}") |"
  done
}
