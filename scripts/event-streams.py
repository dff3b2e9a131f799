#!/usr/bin/env python3
"""Many members of one group and their event streams (GET /groups/{id}/events), for
scripts/bench-events.sh. Python's standard library only: asyncio over raw sockets.

  event-streams.py setup BASE --people N --group-name G
      Signs N people up at BASE (a few at a time). The first makes the group, an invitation
      link and a profile; the others follow the link. Prints JSON:
      {"group", "cookies" (a Cookie header per person), "profile", "sitter_cookie",
      "sitter_csrf", "base", "people"}; the sitter is the first person.

  event-streams.py hold BASE SETUP_JSON --streams N
      Opens N streams of the group, spread over the people (at most 5 each, the server's
      limit), checks each answered 200 text/event-stream, prints "open N" and holds them until
      stdin closes or SIGTERM. Exits 1 if a stream failed to open or ended while held.

  event-streams.py latency PUBLISH_BASE SUBSCRIBE_BASE SETUP_JSON --streams N --events K
      Opens N streams on SUBSCRIBE_BASE; then the sitter posts /sitting and /sitting/stop in
      turn on PUBLISH_BASE, K posts, each once every stream has had the event of the one
      before (or --timeout passed) and --pause after it. For each post and stream, the time
      from just before the post was sent to the arrival of its `sitting-now` event. Prints

        RESULT deliveries=D expected=E p50_ms=… p99_ms=… max_ms=… clock=kernel|read …

      Arrival is the kernel's receive time of the bytes that completed the event (SO_TIMESTAMPNS,
      CLOCK_REALTIME, against the wall-clock time taken with the monotonic one before each post):
      2,000 sockets become readable at once and Python reads them one after another, which would
      otherwise add its own tens of milliseconds to the tail. clock=read (the monotonic time when
      Python read the bytes) when the kernel gives no timestamp; read_p99_ms is always that one.

SETUP_JSON is a file holding what `setup` printed. The file-descriptor limit is raised to its
hard limit here; the server's is its own (bench-events.sh raises it before starting servers).
"""

import argparse
import asyncio
import json
import math
import os
import re
import resource
import secrets
import signal
import socket
import struct
import sys
import time
import urllib.parse

PASSWORD = "bench-password-1"
SITTER_NAME = "Bench Sitter"
STREAMS_PER_PERSON = 5
REFUSED_FOR = 40  # seconds: longer than the server's keep-alive interval (25 s)
# Linux: SO_TIMESTAMPNS (the old, 64-bit timespec one; SCM_TIMESTAMPNS has the same number).
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
TOKEN = re.compile(rb'name="_csrf" value="([^"]*)"')
INVITATION = re.compile(rb"/groups/invite/([A-Za-z0-9_-]+)")


class Failure(Exception):
    """A step that did not do what it must: the message says which, and the script exits 1."""


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def address(base):
    url = urllib.parse.urlsplit(base)
    if url.scheme != "http":
        raise Failure(f"{base}: only http:// is spoken here")
    return url.hostname, url.port or 80, url.netloc


# ---------------------------------------------------------------------------------------------
# A small HTTP/1.1 client for the setup and the sitter's posts: one connection per request.


class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def header(self, name):
        return next((value for key, value in self.headers if key == name), None)

    def excerpt(self):
        text = re.sub(r"<[^>]*>|\s+", " ", self.body.decode("utf-8", "replace"))
        return " ".join(text.split())[:300]


def request_bytes(netloc, method, path, cookie=None, form=None):
    lines = [f"{method} {path} HTTP/1.1", f"Host: {netloc}", "Connection: close", "User-Agent: event-streams"]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    body = b""
    if form is not None:
        body = urllib.parse.urlencode(form).encode()
        lines.append("Content-Type: application/x-www-form-urlencoded")
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def parse_head(head):
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/"):
        raise Failure(f"not an HTTP response: {lines[0]!r}")
    headers = []
    for line in lines[1:]:
        if ":" in line:
            key, value = line.split(":", 1)
            headers.append((key.strip().lower(), value.strip()))
    return int(parts[1]), headers


def dechunk(body):
    out, at = bytearray(), 0
    while True:
        end = body.index(b"\r\n", at)
        size = int(body[at:end].split(b";")[0], 16)
        if size == 0:
            return bytes(out)
        out += body[end + 2 : end + 2 + size]
        at = end + 2 + size + 2


async def http(base, method, path, cookie=None, form=None, connected=None):
    """One request on its own connection. `connected`, when given, is called once the
    connection is up, just before the request is written (the sitter's clock)."""
    host, port, netloc = address(base)
    reader, writer = await asyncio.open_connection(host, port)
    try:
        if connected:
            connected()
        writer.write(request_bytes(netloc, method, path, cookie, form))
        await writer.drain()
        data = await reader.read()  # Connection: close: the response ends with the connection
    finally:
        writer.close()
    head, separator, body = data.partition(b"\r\n\r\n")
    if not separator:
        raise Failure(f"{method} {path}: the connection closed before a whole response")
    status, headers = parse_head(head)
    response = Response(status, headers, body)
    if (response.header("transfer-encoding") or "").lower() == "chunked":
        response.body = dechunk(body)
    return response


class Browser:
    """One person's cookies, kept as a browser keeps them, and the form token of the pages
    it is served (it is made for the sign-in session, so it is read again after signing up)."""

    def __init__(self, base):
        self.base = base
        self.jar = {}
        self.token = None

    def cookie(self):
        return "; ".join(f"{name}={value}" for name, value in self.jar.items())

    def browser_cookie(self):
        """The Cookie header of this browser once it has shown the last redirect's flash."""
        return "; ".join(f"{name}={value}" for name, value in self.jar.items() if name != "sangha_flash")

    async def send(self, method, path, form=None):
        if form is not None:
            form = {**form, "_csrf": self.token}
        for attempt in range(20):
            response = await http(self.base, method, path, self.cookie() or None, form)
            for key, value in response.headers:
                if key != "set-cookie":
                    continue
                name, _, rest = value.partition("=")
                cookie_value = rest.split(";", 1)[0]
                expired = re.search(r";\s*max-age=0\b", value, re.I) or cookie_value == ""
                if expired:
                    self.jar.pop(name.strip(), None)
                else:
                    self.jar[name.strip()] = cookie_value
            # 503: the password hasher's queue is full (sign-ups hash). Try again shortly.
            if response.status == 503:
                await asyncio.sleep(0.05 * (attempt + 1))
                continue
            return response
        return response

    async def read_token(self, path):
        response = await self.send("GET", path)
        match = TOKEN.search(response.body)
        if response.status != 200 or not match:
            raise Failure(f"GET {path}: {response.status}, no form token: {response.excerpt()}")
        self.token = match.group(1).decode()

    async def post(self, path, form, expect, location=None):
        """Posts `form` with the form token; the status must be `expect`, and a redirect's
        Location must match the regular expression `location` (its first group is returned)."""
        response = await self.send("POST", path, form)
        if response.status != expect:
            raise Failure(f"POST {path}: {response.status}, not {expect}: {response.excerpt()}")
        if location is None:
            return response
        target = urllib.parse.urlsplit(response.header("location") or "").path
        match = re.fullmatch(location, target)
        if not match:
            raise Failure(f"POST {path}: redirected to {target!r}, not {location}")
        return match.group(1)

    async def sign_up(self, name, username):
        await self.read_token("/sign-up")
        await self.post("/sign-up", {"name": name, "username": username, "password": PASSWORD}, 303)
        if "sangha_session" not in self.jar:
            raise Failure(f"signing up {username}: no sangha_session cookie (cookies: {sorted(self.jar)})")
        # Signed in: the token of the pages seen with this session.
        await self.read_token("/groups")


async def setup(args):
    run = secrets.token_hex(3)  # usernames unique however often setup runs against one server
    sitter = Browser(args.base)
    await sitter.sign_up(SITTER_NAME, f"sit{run}")
    group = await sitter.post("/groups", {"name": args.group_name}, 303, r"/groups/(\d+)")
    page = await sitter.post(f"/groups/{group}/invitations", {}, 200)
    match = INVITATION.search(page.body)
    if not match:
        raise Failure(f"POST /groups/{group}/invitations: no invitation link in the page: {page.excerpt()}")
    invitation = match.group(1).decode()
    profile = await sitter.post("/profiles", {"name": "Sitting now"}, 303, r"/profiles/(\d+)")

    limit = asyncio.Semaphore(args.concurrency)

    async def member(i):
        async with limit:
            browser = Browser(args.base)
            await browser.sign_up(f"Bench Member {i}", f"m{run}-{i}")
            await browser.post(f"/groups/invite/{invitation}", {}, 303, rf"/groups/({group})")
            return browser

    members = await asyncio.gather(*(member(i) for i in range(1, args.people)))
    people = [sitter, *members]
    print(json.dumps({
        "base": args.base,
        "group": int(group),
        "people": len(people),
        "cookies": [person.browser_cookie() for person in people],
        "profile": int(profile),
        "sitter_cookie": sitter.browser_cookie(),
        "sitter_csrf": sitter.token,
    }))


# ---------------------------------------------------------------------------------------------
# The streams: a non-blocking socket each, read with recvmsg for the kernel's receive time.


class Stream:
    def __init__(self, index, loop, on_event):
        self.index, self.loop, self.on_event = index, loop, on_event
        self.sock = None
        self.buffer = bytearray()
        self.headed = False
        self.chunked = False
        self.chunk_left = None  # bytes left in the current chunk; None: a size line is next
        self.payload = bytearray()  # the decoded body not yet split into events
        self.opened = loop.create_future()
        self.closed = loop.create_future()
        self.status = None
        self.content_type = None
        self.timestamps = True
        self.last_event = None  # what latency keeps per stream
        self.events = 0

    async def open(self, base, path, cookie):
        host, port, netloc = address(base)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        except OSError:
            self.timestamps = False
        await self.loop.sock_connect(self.sock, (host, port))
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {netloc}\r\nCookie: {cookie}\r\n"
            "Accept: text/event-stream\r\nCache-Control: no-cache\r\nUser-Agent: event-streams\r\n\r\n"
        ).encode()
        await self.loop.sock_sendall(self.sock, request)
        self.loop.add_reader(self.sock.fileno(), self.readable)
        await self.opened

    def close(self):
        if self.sock is not None:
            try:
                self.loop.remove_reader(self.sock.fileno())
            except (ValueError, OSError):
                pass
            self.sock.close()
            self.sock = None

    def end(self, reason):
        if not self.opened.done():
            self.opened.set_exception(Failure(f"stream {self.index}: {reason}"))
        if not self.closed.done():
            self.closed.set_result(reason)
        self.close()

    def readable(self):
        try:
            data, ancillary, _, _ = self.sock.recvmsg(65536, socket.CMSG_SPACE(16))
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self.end(f"read failed: {error}")
            return
        read_ns = time.monotonic_ns()
        kernel_ns = None
        for level, kind, value in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(value) >= 16:
                seconds, nanoseconds = struct.unpack("qq", value[:16])
                kernel_ns = seconds * 1_000_000_000 + nanoseconds
        if not data:
            self.end("the server closed the stream")
            return
        self.feed(data, kernel_ns, read_ns)

    def feed(self, data, kernel_ns, read_ns):
        self.buffer += data
        if not self.headed:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status, headers = parse_head(bytes(self.buffer[:end]))
            del self.buffer[: end + 4]
            self.headed = True
            self.status = status
            headers = dict(headers)
            self.content_type = headers.get("content-type", "")
            self.chunked = headers.get("transfer-encoding", "").lower() == "chunked"
            if status != 200 or not self.content_type.startswith("text/event-stream"):
                self.end(f"{status}, content-type {self.content_type!r}")
                return
            self.opened.set_result(None)
        if self.chunked:
            self.dechunk()
        else:
            self.payload += self.buffer
            self.buffer.clear()
        self.split_events(kernel_ns, read_ns)

    def dechunk(self):
        """Moves the whole chunks' bytes from the buffer to the payload. chunk_left: None
        before a size line, else the bytes of the chunk still to come; -1 before its CRLF."""
        while True:
            if self.chunk_left is None:
                end = self.buffer.find(b"\r\n")
                if end < 0:
                    return
                size = int(bytes(self.buffer[:end]).split(b";")[0], 16)
                del self.buffer[: end + 2]
                if size == 0:
                    return  # the last chunk: the server ended the stream, and EOF follows
                self.chunk_left = size
            if self.chunk_left > 0:
                take = min(self.chunk_left, len(self.buffer))
                self.payload += self.buffer[:take]
                del self.buffer[:take]
                self.chunk_left -= take
                if self.chunk_left:
                    return
                self.chunk_left = -1
            if len(self.buffer) < 2:
                return
            del self.buffer[:2]  # the chunk's CRLF
            self.chunk_left = None

    def split_events(self, kernel_ns, read_ns):
        if b"\r" in self.payload:
            self.payload[:] = self.payload.replace(b"\r\n", b"\n")
        while True:
            end = self.payload.find(b"\n\n")
            if end < 0:
                return
            block = bytes(self.payload[:end]).decode("utf-8", "replace")
            del self.payload[: end + 2]
            kind, data = "message", []
            has_data = False
            for line in block.split("\n"):
                if line.startswith(":"):
                    continue  # a comment: the keep-alive
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    kind = value
                elif field == "data":
                    data.append(value)
                    has_data = True
            if has_data:
                self.events += 1
                self.on_event(self, kind, "\n".join(data), kernel_ns, read_ns)


async def open_streams(base, setup_data, count, on_event, concurrency=64):
    """Opens `count` streams of the group, person i % people for stream i (never more than 5
    a person). A 429 is tried again for up to REFUSED_FOR seconds: streams of this person
    closed a moment ago (a previous hold) may not have been noticed by the server yet; how
    many were is printed to stderr."""
    cookies = setup_data["cookies"]
    if count > STREAMS_PER_PERSON * len(cookies):
        raise Failure(f"{count} streams need at least {math.ceil(count / STREAMS_PER_PERSON)} people, "
                      f"the setup has {len(cookies)}")
    loop = asyncio.get_running_loop()
    path = f"/groups/{setup_data['group']}/events"
    streams = [None] * count
    limit = asyncio.Semaphore(concurrency)
    refused = set()
    started = time.monotonic()

    async def one(index):
        while True:
            stream = streams[index] = Stream(index, loop, on_event)
            async with limit:
                try:
                    await asyncio.wait_for(stream.open(base, path, cookies[index % len(cookies)]), 30)
                    return
                except asyncio.TimeoutError:
                    stream.end("no answer within 30 s")
                    raise Failure(f"stream {index}: no answer within 30 s")
                except Failure:
                    stream.close()
                    if stream.status != 429 or time.monotonic() - started > REFUSED_FOR:
                        raise
                    refused.add(index)
            await asyncio.sleep(0.5)

    results = await asyncio.gather(*(one(index) for index in range(count)), return_exceptions=True)
    failures = [result for result in results if isinstance(result, BaseException)]
    if failures:
        for stream in streams:
            if stream is not None:
                stream.close()
        raise Failure(f"{len(failures)} of {count} streams did not open; the first: {failures[0]}")
    if refused:
        print(f"event-streams.py: {len(refused)} streams were refused (429) at first and opened later, "
              f"all open after {time.monotonic() - started:.1f} s", file=sys.stderr)
    return streams


def load_setup(path):
    with open(path) as file:
        return json.load(file)


async def until_stopped():
    """Until stdin closes (its end of file) or SIGTERM/SIGINT."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    def stdin_readable():
        try:
            if not os.read(sys.stdin.fileno(), 4096):
                loop.remove_reader(sys.stdin.fileno())
                stop.set()
        except OSError:
            loop.remove_reader(sys.stdin.fileno())
            stop.set()

    try:
        loop.add_reader(sys.stdin.fileno(), stdin_readable)
    except (ValueError, OSError, PermissionError):
        pass  # a regular file (or none) for stdin: SIGTERM alone ends the hold
    await stop.wait()


async def hold(args):
    setup_data = load_setup(args.setup)
    streams = await open_streams(args.base, setup_data, args.streams, lambda *event: None)
    print(f"open {len(streams)}", flush=True)
    stopped = asyncio.ensure_future(until_stopped())
    ended = [stream.closed for stream in streams]
    await asyncio.wait([stopped, *ended], return_when=asyncio.FIRST_COMPLETED)
    ended_early = [stream for stream in streams if stream.closed.done()]
    for stream in streams:
        stream.close()
    if ended_early:
        stopped.cancel()
        raise Failure(f"a stream ended while held (stream {ended_early[0].index}: "
                      f"{ended_early[0].closed.result()}; {len(ended_early)} of {len(streams)} by then)")


def percentile(sorted_values, fraction):
    """The nearest-rank percentile of a sorted list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


async def latency(args):
    setup_data = load_setup(args.setup)
    # The post being waited for: its number, its wall-clock and monotonic send times.
    window = {"post": None, "wall_ns": 0, "mono_ns": 0, "here": 0}
    kernel_ms, read_ms = [], []
    counts = {"received": 0, "extra": 0, "before": 0, "mismatched": 0, "no_kernel_time": 0}
    all_here = asyncio.Event()
    total = args.streams

    def on_event(stream, kind, data, kernel_ns, read_ns):
        post = window["post"]
        if kind != "sitting-now":
            return
        if post is None:
            counts["before"] += 1  # what the stream showed as it opened, if anything
            return
        if stream.last_event == post:
            counts["extra"] += 1
            return
        stream.last_event = post
        counts["received"] += 1
        read_ms.append((read_ns - window["mono_ns"]) / 1e6)
        if kernel_ns is None:
            counts["no_kernel_time"] += 1
        else:
            kernel_ms.append((kernel_ns - window["wall_ns"]) / 1e6)
        # Started posts (even numbers) show the sitter; stopped ones do not.
        if (SITTER_NAME in data) != (post % 2 == 0):
            counts["mismatched"] += 1
        window["here"] += 1
        if window["here"] == total:
            all_here.set()

    streams = await open_streams(args.subscribe_base, setup_data, args.streams, on_event)
    await asyncio.sleep(args.settle)  # anything sent as the streams opened arrives first
    timeouts = 0
    failed = None
    try:
        for post in range(args.events):
            path = "/sitting" if post % 2 == 0 else "/sitting/stop"
            form = {"profile": setup_data["profile"], "seconds": 600} if post % 2 == 0 else {}
            form["_csrf"] = setup_data["sitter_csrf"]
            all_here.clear()
            window["here"] = 0

            def connected(post=post):
                # Just before the request is written: the events that arrive from now on are its.
                window["post"] = post
                window["mono_ns"] = time.monotonic_ns()
                window["wall_ns"] = time.time_ns()

            response = await http(args.publish_base, "POST", path, setup_data["sitter_cookie"], form, connected)
            if response.status != 204:
                raise Failure(f"POST {path}: {response.status}, not 204: {response.excerpt()}")
            try:
                await asyncio.wait_for(all_here.wait(), args.timeout)
            except asyncio.TimeoutError:
                timeouts += 1
            ended = sum(1 for stream in streams if stream.closed.done())
            if ended:
                failed = Failure(f"{ended} streams ended during the run")
                break
            await asyncio.sleep(args.pause)
    finally:
        if window["post"] is not None and window["post"] % 2 == 0:
            # The sitter is left sitting after an odd number of posts: stop, for the next run.
            try:
                await http(args.publish_base, "POST", "/sitting/stop", setup_data["sitter_cookie"],
                           {"_csrf": setup_data["sitter_csrf"]})
            except (OSError, Failure):
                pass
        for stream in streams:
            stream.close()
    use_kernel = counts["no_kernel_time"] == 0 and kernel_ms
    figures = sorted(kernel_ms if use_kernel else read_ms)
    reads = sorted(read_ms)
    expected = args.streams * args.events
    print(
        f"RESULT deliveries={counts['received']} expected={expected} "
        f"p50_ms={percentile(figures, 0.50):.2f} p99_ms={percentile(figures, 0.99):.2f} "
        f"max_ms={(figures[-1] if figures else float('nan')):.2f} clock={'kernel' if use_kernel else 'read'} "
        f"read_p99_ms={percentile(reads, 0.99):.2f} timeouts={timeouts} extra={counts['extra']} "
        f"mismatched={counts['mismatched']} streams={args.streams} events={args.events}",
        flush=True,
    )
    if failed:
        raise failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    setup_parser = commands.add_parser("setup", help="people, a group, its members")
    setup_parser.add_argument("base")
    setup_parser.add_argument("--people", type=int, required=True)
    setup_parser.add_argument("--group-name", default="Bench group")
    setup_parser.add_argument("--concurrency", type=int, default=8, help="sign-ups at once")
    hold_parser = commands.add_parser("hold", help="open streams and hold them")
    hold_parser.add_argument("base")
    hold_parser.add_argument("setup", help="a file with what setup printed")
    hold_parser.add_argument("--streams", type=int, default=2000)
    latency_parser = commands.add_parser("latency", help="event delivery times")
    latency_parser.add_argument("publish_base")
    latency_parser.add_argument("subscribe_base")
    latency_parser.add_argument("setup", help="a file with what setup printed")
    latency_parser.add_argument("--streams", type=int, default=2000)
    latency_parser.add_argument("--events", type=int, default=100)
    latency_parser.add_argument("--pause", type=float, default=0.2,
                                help="seconds after every stream had a post's event (at least 0.1)")
    latency_parser.add_argument("--timeout", type=float, default=5.0,
                                help="seconds to wait for a post's events before the next post")
    latency_parser.add_argument("--settle", type=float, default=1.0,
                                help="seconds between the streams opening and the first post")
    args = parser.parse_args()
    if args.command == "setup" and args.people < 1:
        parser.error("--people must be at least 1")
    if args.command == "latency" and args.pause < 0.1:
        parser.error("--pause must be at least 0.1 s: events sent faster may be coalesced")
    raise_fd_limit()
    command = {"setup": setup, "hold": hold, "latency": latency}[args.command]
    try:
        asyncio.run(command(args))
    except Failure as failure:
        print(f"event-streams.py {args.command}: {failure}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
