#!/usr/bin/env python3
"""Fills a group with members who want its sits on their devices, for scripts/bench-push.sh.

    scripts/push-members.py BASE_URL INVITATION_PATH ENDPOINT_BASE [--members N] [--devices N] [--threads N]

Each member signs up (POST /sign-up), joins by the invitation (POST INVITATION_PATH) and turns
notifications on for --devices devices (POST /push/subscriptions, endpoint
ENDPOINT_BASE/mMEMBERdDEVICE, with RFC 8291's example browser key and secret: a valid P-256
point; each message still gets a key pair of its own). Over keep-alive connections, one per
thread (4); every answer must be the one a browser gets (303, 201), or the script stops with it.
Prints one line: what it added and how long it took. Standard library only.
"""
import argparse
import http.client
import re
import sys
import threading
import time
import urllib.parse

P256DH = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
AUTH = "BTBZMqHH6r4Tts7J_aSIgg"
PASSWORD = "bench-password-1"


class Browser:
    def __init__(self, host, port):
        self.connection = http.client.HTTPConnection(host, port, timeout=30)
        self.cookies = {}

    def request(self, method, path, fields=None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), "User-Agent": "bench"}
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, text

    def token(self, path):
        status, text = self.request("GET", path)
        match = re.search(r'name="_csrf" value="([^"]*)"', text)
        if status != 200 or not match:
            raise SystemExit(f"GET {path}: {status}, no form token")
        return match.group(1)

    def post(self, path, fields, expect):
        status, text = self.request("POST", path, fields)
        if status != expect:
            raise SystemExit(f"POST {path}: {status} (expected {expect}): {text[:300]}")


def member(base, invitation, endpoints, number, devices):
    url = urllib.parse.urlsplit(base)
    browser = Browser(url.hostname, url.port)
    token = browser.token("/sign-up")
    browser.post("/sign-up", {"name": f"Member {number}", "username": f"member{number}", "password": PASSWORD,
                              "_csrf": token}, 303)
    token = browser.token(invitation)
    browser.post(invitation, {"_csrf": token}, 303)
    for device in range(devices):
        browser.post("/push/subscriptions", {"endpoint": f"{endpoints}/m{number}d{device}", "p256dh": P256DH,
                                             "auth": AUTH, "_csrf": token}, 201)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("invitation")
    parser.add_argument("endpoints")
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--devices", type=int, default=2)
    # At most four at once: the server hashes passwords on one thread for two cores, with four
    # waiting (more are answered 503, "Sangha is busy").
    parser.add_argument("--threads", type=int, default=4)
    arguments = parser.parse_args()
    started = time.time()
    numbers = iter(range(arguments.members))
    lock = threading.Lock()
    failures = []

    def work():
        while True:
            with lock:
                number = next(numbers, None)
            if number is None or failures:
                return
            try:
                member(arguments.base, arguments.invitation, arguments.endpoints, number, arguments.devices)
            except BaseException as error:  # noqa: BLE001 - reported below
                failures.append(error)
                return

    threads = [threading.Thread(target=work) for _ in range(arguments.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        print(failures[0], file=sys.stderr)
        sys.exit(1)
    print(f"{arguments.members} members with {arguments.devices} devices each in {time.time() - started:.1f} s")


if __name__ == "__main__":
    main()
