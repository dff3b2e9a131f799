"""Firefox driven over WebDriver BiDi, its own remote protocol (Debian ships no geckodriver):
a headless `firefox-esr` with a profile of its own, and the few commands the push test needs
(navigate, evaluate a script, press an element with the pointer as a person does)."""
import itertools
import json
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from websockets.sync.client import connect


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Firefox:
    def __init__(self, prefs):
        self.profile = Path(tempfile.mkdtemp(prefix="sangha-firefox-"))
        lines = [f"user_pref({json.dumps(name)}, {json.dumps(value)});" for name, value in prefs.items()]
        (self.profile / "user.js").write_text("\n".join(lines) + "\n")
        self.port = _free_port()
        binary = shutil.which("firefox-esr") or shutil.which("firefox")
        self.log = open(self.profile / "firefox.log", "w")
        self.process = subprocess.Popen(
            [binary, "--headless", "--no-remote", "--profile", str(self.profile),
             "--remote-debugging-port", str(self.port), "about:blank"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            try:
                self.socket = connect(f"ws://127.0.0.1:{self.port}/session", open_timeout=5, max_size=None, legacy=True)
                break
            except OSError:
                if time.time() > deadline:
                    self.quit()
                    raise
                time.sleep(0.2)
        self._ids = itertools.count(1)
        self.command("session.new", {"capabilities": {}})
        self.context = self.command("browsingContext.getTree", {})["contexts"][0]["context"]

    def command(self, method, params, timeout=60):
        number = next(self._ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        deadline = time.time() + timeout
        while True:
            answer = json.loads(self.socket.recv(timeout=max(0.1, deadline - time.time())))
            if answer.get("id") != number:
                continue  # an event
            if answer.get("type") == "error":
                raise RuntimeError(f"{method}: {answer.get('error')}: {answer.get('message')}")
            return answer["result"]

    def navigate(self, url):
        self.command("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def evaluate(self, expression, own=False):
        """The value of `expression` in the page (a promise awaited); with `own`, a handle."""
        result = self.command("script.evaluate", {
            "expression": expression, "target": {"context": self.context}, "awaitPromise": True,
            "resultOwnership": "root" if own else "none"})
        if result.get("type") == "exception":
            raise RuntimeError(result["exceptionDetails"]["text"])
        return result["result"] if own else _value(result["result"])

    def press(self, selector):
        """Scrolls the element into view, moves the pointer onto it and presses it, as a person's
        click."""
        element = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); e.scrollIntoView({{block: 'center'}}); return e; }})()",
            own=True)
        self.command("input.performActions", {"context": self.context, "actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "x": 0, "y": 0, "origin": {"type": "element", "element": {"sharedId": element["sharedId"]}}},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0}]}]})

    def until(self, expression, timeout=30, interval=0.25):
        """Waits for `expression` to be truthy in the page (a generous bound, never asserted)."""
        deadline = time.time() + timeout
        while True:
            value = self.evaluate(expression)
            if value or time.time() > deadline:
                return value
            time.sleep(interval)

    def quit(self):
        try:
            self.command("session.end", {}, timeout=5)
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def _value(remote):
    """A BiDi remote value as Python's."""
    kind = remote.get("type")
    if kind in ("undefined", "null"):
        return None
    if kind == "array":
        return [_value(item) for item in remote.get("value", [])]
    if kind == "object":
        return {key if isinstance(key, str) else _value(key): _value(value) for key, value in remote.get("value", [])}
    return remote.get("value")
