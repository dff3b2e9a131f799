#!/usr/bin/env python3
"""Seeds a running Sangha with many records, fast: friends, profiles and sitting sessions.

    scripts/seed.py BASE_URL --cookie COOKIES [--friends N] [--profiles N] [--sessions N] [--threads N]
                    [--log-days D --log-sessions N]

Posts the forms a browser would (POST /friends, POST /profiles, POST /sessions) as the signed-in
person whose Cookie header value is COOKIES (`seed` in scripts/common.sh prints one), over
keep-alive connections, one per thread. Friends and profiles go
first, then the sessions (with profile --session-profile, which must exist by then: `seed` in
scripts/common.sh makes profiles 1 and 2, and so does this script's first profile on an empty
instance). Every answer must be 303; on any other the script stops with what it got. Prints one
line: what it added and how long it took. Standard library only.

POST /sessions records only sessions sat within the last 30 days (SittingSession.recentWindow;
older ones are refused with 422), as the sitting page records a session when it ends. The
sessions start within the last --hours hours (47 by default, at most 47: an hour to spare for
the seeding itself and a clock that drifts), however many there are: 10,000 sessions are 10,000
rows of /history to page through, all of them within the last two or three calendar days, so
the history's 30-day chart counts every one of them and its streak is two or three days long.

A log of years goes in as a person brings one from another app: --log-sessions N sessions over
the last --log-days D days (at least one a day, so a streak of D days up to yesterday), imported
at once as the export's CSV through POST /history/import.
"""


import argparse
import http.client
import random
import re
import sys
import threading
import time
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone

FIRST_NAMES = [
    "Ada", "Bodhi", "Chen", "Dana", "Emil", "Farah", "Gita", "Hana", "Ivo", "Jun", "Kira", "Lena",
    "Mira", "Noor", "Omar", "Pema", "Quinn", "Ravi", "Sora", "Tara", "Uma", "Vera", "Wen", "Yuki",
]
PROFILE_WORDS = ["Morning", "Evening", "Short", "Long", "Quiet", "Walking", "Breath", "Metta"]
LETTERS = "abcdefghijklmnopqrstuvwxyz"
# POST /sessions refuses a session sat more than 48 hours ago; an hour less leaves room for a
# long seeding run and a little clock drift.
MAX_HOURS = 47


class SeedError(Exception):
    pass


def letters(number):
    """0 → 'A', 25 → 'Z', 26 → 'Ba': a name made of letters only, as friend names must be."""
    text = ""
    while True:
        text = LETTERS[number % 26] + text
        number //= 26
        if number == 0:
            return text.capitalize()


class Client:
    """One keep-alive connection to the server, reopened when the server closed it."""

    def __init__(self, base):
        url = urllib.parse.urlsplit(base)
        if url.scheme != "http" or not url.hostname:
            raise SeedError(f"the base URL must be http://HOST:PORT, not {base!r}")
        self.host, self.port = url.hostname, url.port or 80
        self.prefix = url.path.rstrip("/")
        self.connection = None

    def request(self, method, path, body=None, headers=None):
        """(status, headers, body); retries once when a reused connection turns out closed."""
        headers = dict(headers or {})
        for attempt in (1, 2):
            fresh = self.connection is None
            if fresh:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                self.connection.request(method, self.prefix + path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response.status, response.headers, data
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as error:
                self.close()
                if fresh or attempt == 2:
                    raise SeedError(f"{method} {path}: the connection failed: {error}") from error
            except OSError as error:
                self.close()
                raise SeedError(f"{method} {path}: {error}") from error
        raise AssertionError("unreachable")

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def form_token(base, cookies):
    """The form token of the pages a signed-in browser with this Cookie header value sees (its
    CSRF nonce signed with its session, so read from a page as a browser has it)."""
    request = urllib.request.Request(base.rstrip("/") + "/profiles", headers={"Cookie": cookies})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            page = response.read().decode()
    except OSError as error:
        raise SeedError(f"GET /profiles: {error}") from error
    match = re.search(r'name="_csrf" value="([^"]+)"', page)
    if match is None:
        raise SeedError("GET /profiles shows no form: is --cookie a signed-in browser's?")
    return match.group(1)


def post_all(base, cookies, path, forms, threads, check=None):
    """Posts each form to path, spread over threads; every answer must be 303."""
    failures = []
    stop = threading.Event()
    token = form_token(base, cookies)
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": cookies,
    }

    def work(part):
        client = Client(base)
        try:
            for form in part:
                if stop.is_set():
                    return
                body = urllib.parse.urlencode({**form, "_csrf": token})
                status, answer_headers, data = client.request("POST", path, body, headers)
                if status != 303:
                    excerpt = data[:300].decode("utf-8", "replace").strip()
                    raise SeedError(f"POST {path} {body!r} answered {status}, not 303: {excerpt}")
                if check:
                    check(answer_headers)
        except SeedError as error:
            failures.append(str(error))
            stop.set()
        except Exception as error:  # noqa: BLE001 — any failure stops every thread, with why
            failures.append(f"POST {path}: {error!r}")
            stop.set()
        finally:
            client.close()

    workers = [threading.Thread(target=work, args=(forms[i::threads],)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failures:
        raise SeedError(failures[0])


def import_log(base, cookies, sessions, days, rng, now):
    """Imports `sessions` sessions spread over the `days` days before today (UTC), each day at
    least one, as one CSV file previewed, then imported by the token its preview page carries."""
    lines = ["started_at,seconds,profile,outcome,group,note"]
    for i in range(sessions):
        day = i % days + 1
        started = (now - timedelta(days=day)).replace(hour=6, minute=0, second=0) + timedelta(minutes=i // days)
        lines.append(f"{started.strftime('%Y-%m-%dT%H:%M:%SZ')},{rng.randint(300, 3600)},Morning,completed,,")
    csv = "\r\n".join(lines) + "\r\n"
    boundary = "seed-boundary-7117"

    def post(parts):
        body = "".join(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"'
            + (f'; filename="{filename}"\r\nContent-Type: text/csv' if filename else "")
            + f"\r\n\r\n{value}\r\n"
            for name, filename, value in parts) + f"--{boundary}--\r\n"
        client = Client(base)
        try:
            return client.request("POST", "/history/import", body.encode(), {
                "Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookies})
        finally:
            client.close()

    # The preview keeps the file on the server under a token its page carries; Import sends it.
    csrf = form_token(base, cookies)
    status, _, data = post([("_csrf", None, csrf), ("file", "log.csv", csv)])
    token = re.search(rb'name="token" value="([^"]+)"', data) if status == 200 else None
    if not token:
        raise SeedError(f"POST /history/import (preview) answered {status} without a token: {data[:300]!r}")
    status, _, data = post([("_csrf", None, csrf), ("token", None, token.group(1).decode()), ("action", None, "import")])
    if status != 303:
        raise SeedError(f"POST /history/import answered {status}, not 303: {data[:300]!r}")


def profile_location(headers):
    location = headers.get("Location", "")
    number = location.rsplit("/", 1)[-1]
    if not location.startswith("/profiles/") or not number.isdigit():
        raise SeedError(f"POST /profiles redirected to {location!r}, not /profiles/N")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the server, e.g. http://127.0.0.1:8080")
    parser.add_argument("--cookie", required=True, help="a signed-in browser's Cookie header value")
    parser.add_argument("--friends", type=int, default=0)
    parser.add_argument("--profiles", type=int, default=0)
    parser.add_argument("--sessions", type=int, default=0)
    parser.add_argument("--session-profile", type=int, default=1, help="profile id the sessions are sat with")
    parser.add_argument("--hours", type=int, default=MAX_HOURS,
                        help=f"sessions start within this many past hours, 1 to {MAX_HOURS} "
                             "(POST /sessions records the last 48 hours only)")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1, help="random seed, for the same data every run")
    parser.add_argument("--log-days", type=int, default=0, help="days of the imported log, up to yesterday")
    parser.add_argument("--log-sessions", type=int, default=0, help="sessions of the imported log")
    args = parser.parse_args()
    if args.log_sessions and not 1 <= args.log_days <= args.log_sessions:
        parser.error("--log-days must be from 1 to --log-sessions")
    if min(args.friends, args.profiles, args.sessions) < 0 or args.threads < 1:
        parser.error("the counts must be 0 or more, --threads 1 or more")
    if not 1 <= args.hours <= MAX_HOURS:
        parser.error(f"--hours must be from 1 to {MAX_HOURS}: POST /sessions refuses older sessions")

    rng = random.Random(args.seed)
    now = datetime.now(timezone.utc).replace(microsecond=0)
    friends = [
        {
            "firstname": rng.choice(FIRST_NAMES),
            "lastname": letters(i + 26 * 26),
            "phonenumber": ("+" if i % 3 == 0 else "") + f"555{i:07d}",
        }
        for i in range(args.friends)
    ]
    profiles = [{"name": f"{rng.choice(PROFILE_WORDS)} {i + 1}"} for i in range(args.profiles)]
    sessions = []
    for _ in range(args.sessions):
        started = now - timedelta(seconds=rng.randrange(60, args.hours * 3600))
        sessions.append({
            "profile": str(args.session_profile),
            "startedAt": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "seconds": str(rng.randint(60, 3600)),
            "completed": "true" if rng.random() < 0.8 else "false",
        })

    began = time.monotonic()
    try:
        post_all(args.base, args.cookie, "/friends", friends, args.threads)
        post_all(args.base, args.cookie, "/profiles", profiles, args.threads, check=profile_location)
        post_all(args.base, args.cookie, "/sessions", sessions, args.threads)
        if args.log_sessions:
            import_log(args.base, args.cookie, args.log_sessions, args.log_days, rng, now)
    except SeedError as error:
        print(f"seed.py: {error}", file=sys.stderr)
        return 1
    seconds = time.monotonic() - began
    total = len(friends) + len(profiles) + len(sessions)
    rate = total / seconds if seconds > 0 else 0
    log = f", a log of {args.log_sessions} sessions over {args.log_days} days" if args.log_sessions else ""
    print(f"seeded {len(friends)} friends, {len(profiles)} profiles, {len(sessions)} sessions{log} "
          f"in {seconds:.1f} s ({rate:.0f} posts/s, {args.threads} threads)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
