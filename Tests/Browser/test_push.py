"""Notifications end to end, offline: Firefox ESR, headless, whose push service is a stand-in
of Mozilla's on loopback (push_server.py), turns notifications on in Settings as a person does
(the button pressed with the pointer over WebDriver BiDi), a group sit is scheduled, and the
notification Firefox decrypted and shows is read back from its service worker. Chromium's
DevTools (`ServiceWorker.deliverPushMessage`) hands the same worker a push directly.
"""
import json
import os
import re
import itertools
import shutil
import time
import urllib.request

import pytest

from websockets.sync.client import connect

from bidi import Firefox
from conftest import PASSWORD, Server, make_driver, sign_up
from push_server import PushServer

FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")
needs_firefox = pytest.mark.skipif(
    not FIREFOX and os.environ.get("CI") != "true", reason="firefox-esr is not installed (make test installs it)")


@pytest.fixture
def push_service():
    service = PushServer()
    yield service
    service.stop()


@pytest.fixture
def push_sangha(push_service):
    running = Server("--push-contact", "mailto:ops@sangha.org", "--push-allow-endpoint", push_service.origin)
    yield running
    running.stop()


def firefox_prefs(push_service):
    return {
        "dom.push.enabled": True,
        "dom.push.connection.enabled": True,
        "dom.push.serverURL": push_service.server_url,
        "dom.push.testing.allowInsecureServerURL": True,
        "dom.push.testing.ignorePermission": True,
        "alerts.useSystemBackend": False,
        # The permission the button asks for is granted, as a person would grant it.
        "permissions.default.desktop-notification": 1,
        "notification.prompt.testing": True,
        "notification.prompt.testing.allow": True,
        "dom.serviceWorkers.enabled": True,
        "dom.serviceWorkers.testing.enabled": True,
        # Nothing of Firefox's own reaches for the network.
        "app.update.disabledForTesting": True,
        "browser.shell.checkDefaultBrowser": False,
        "datareporting.policy.dataSubmissionEnabled": False,
        "toolkit.telemetry.reportingpolicy.firstRun": False,
        "browser.safebrowsing.update.enabled": False,
        "network.captive-portal-service.enabled": False,
        "network.connectivity-service.enabled": False,
        "extensions.update.enabled": False,
        "browser.newtabpage.enabled": False,
    }


def submit(firefox, url, fields, button_text):
    """Fills the form whose button says `button_text` on `url` and sends it, as a person would."""
    firefox.navigate(url)
    firefox.evaluate(f"""(() => {{
        const button = [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === {json.dumps(button_text)});
        const form = button.form;
        for (const [name, value] of Object.entries({json.dumps(fields)})) form.elements[name].value = value;
        form.requestSubmit(button);
        return true;
    }})()""")


@needs_firefox
def test_a_sit_about_to_start_reaches_firefox_as_a_notification(push_service, push_sangha):
    firefox = Firefox(firefox_prefs(push_service))
    try:
        url = push_sangha.url
        submit(firefox, url + "/sign-up", {"name": "Ada Lovelace", "username": "ada", "password": PASSWORD},
               "Create account")
        assert firefox.until("location.pathname === '/' && document.body.innerText.includes('Ada Lovelace')")
        submit(firefox, url + "/profiles", {"name": "Zazen"}, "Create profile")
        assert firefox.until("document.querySelector('h1')?.textContent.includes('Zazen')")
        submit(firefox, url + "/groups", {"name": "Morning sangha"}, "Create group")
        assert firefox.until("/^\\/groups\\/\\d+$/.test(location.pathname)")
        group = firefox.evaluate("location.pathname")

        firefox.navigate(url + "/settings")
        assert firefox.until("navigator.serviceWorker.ready.then(() => true)")
        # The browser says hello to its push service before it subscribes there.
        push_service.hello.wait(30)
        assert firefox.until("!document.querySelector('[data-push-turn-on]').hidden")
        firefox.press("[data-push-turn-on] button")
        assert firefox.until(
            "document.querySelector('[data-push-status]').textContent === 'Notifications are on for this device.'")
        assert push_service.registered.is_set()
        firefox.navigate(url + "/settings")
        assert firefox.until("document.body.innerText.includes('Firefox on Linux')")

        # A sit two minutes from now: told at once (less than ten minutes ahead).
        firefox.navigate(url + group)
        starts = firefox.evaluate("""(() => {
            const at = new Date(Date.now() + 120000);
            const pad = (n) => String(n).padStart(2, "0");
            return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
        })()""")
        submit(firefox, url + group, {"startsAt": starts}, "Schedule a sit")
        assert firefox.until("document.body.innerText.includes('The sit is scheduled.')")

        shown = firefox.until(
            "navigator.serviceWorker.ready.then((r) => r.getNotifications())"
            ".then((all) => all.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url})))",
            timeout=60)
        assert shown, "no notification shown:\n" + push_sangha.data.joinpath("sangha.log").read_text()[-3000:]
        assert len(shown) == 1
        assert re.fullmatch(r"Zazen begins at \d\d:\d\d", shown[0]["title"])
        assert shown[0]["title"].endswith(starts[-5:])
        assert shown[0]["body"] == "Morning sangha"
        assert re.fullmatch(r"sit-\d+", shown[0]["tag"])
        assert re.fullmatch(group + r"/sits/\d+", shown[0]["url"])
        # What Sangha posted: encrypted, with RFC 8030's headers and VAPID; the browser acked it.
        post = push_service.posts[-1]
        assert post["headers"]["Content-Encoding"] == "aes128gcm"
        assert post["headers"]["Urgency"] == "high" and post["headers"]["Topic"] == shown[0]["tag"]
        assert 0 < int(post["headers"]["TTL"]) <= 180
        assert post["headers"]["Authorization"].startswith("vapid t=")
        assert b"Zazen" not in post["body"]
        assert firefox.until("true") and push_service.acked
    finally:
        firefox.quit()


def test_chromium_shows_a_push_its_devtools_deliver(push_service, push_sangha):
    """The same worker's push handler in Chromium: a push handed to it by DevTools is shown with
    its title, body and tag (Chromium's push service is Google's, out of reach here)."""
    browser = make_driver()
    try:
        sign_up(browser, push_sangha)
        browser.get(push_sangha.url + "/settings")
        browser.execute_async_script(
            "const done = arguments[arguments.length - 1]; navigator.serviceWorker.ready.then(() => done(true));")
        browser.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": push_sangha.url, "permissions": ["notifications"]})
        payload = json.dumps({"title": "Zazen begins at 07:00", "body": "Morning sangha", "url": "/groups/1/sits/1",
                              "tag": "sit-1"})
        shown = []
        with DevTools(browser) as devtools:
            registration = devtools.active_worker(push_sangha.url + "/")
            # DevTools now and then drops the first push it hands a worker that just started (the
            # worker never sees it); the same push again is shown once, under its one tag.
            for _ in range(3):
                devtools.command("ServiceWorker.deliverPushMessage", {
                    "origin": push_sangha.url, "registrationId": registration, "data": payload})
                deadline = time.time() + 10
                while time.time() < deadline and not shown:
                    shown = browser.execute_async_script("""
                        const done = arguments[arguments.length - 1];
                        navigator.serviceWorker.ready.then((r) => r.getNotifications())
                            .then((all) => done(all.map((n) => [n.title, n.body, n.tag, n.data && n.data.url])));""")
                    time.sleep(0.2)
                if shown:
                    break
        assert shown == [["Zazen begins at 07:00", "Morning sangha", "sit-1", "/groups/1/sits/1"]]
    finally:
        browser.quit()


class DevTools:
    """A second DevTools connection to the page ChromeDriver drives, for what Selenium cannot
    read: the events that name the service worker's registration (its id is Chromium's own)."""

    def __init__(self, driver):
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/list", timeout=10) as answer:
            pages = [target for target in json.load(answer) if target["type"] == "page"]
        self.socket = connect(pages[0]["webSocketDebuggerUrl"], open_timeout=10, max_size=None, legacy=True)
        self.ids = itertools.count(1)
        self.events = []

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.socket.close()

    def command(self, method, params=None, timeout=30):
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params or {}}))
        deadline = time.time() + timeout
        while True:
            message = json.loads(self.socket.recv(timeout=max(0.1, deadline - time.time())))
            if message.get("id") != number:
                self.events.append(message)
                continue
            if "error" in message:
                raise RuntimeError(f"{method}: {message['error']}")
            return message["result"]

    def active_worker(self, scope, timeout=30):
        """The registration id of the activated worker whose scope is `scope`."""
        self.command("ServiceWorker.enable")
        # Either event may come first: both are gathered until one registration has both.
        registrations, activated, deadline = set(), set(), time.time() + timeout
        while True:
            for event in self.events:
                params = event.get("params", {})
                if event.get("method") == "ServiceWorker.workerRegistrationUpdated":
                    for registration in params["registrations"]:
                        if registration["scopeURL"] == scope and not registration["isDeleted"]:
                            registrations.add(registration["registrationId"])
                if event.get("method") == "ServiceWorker.workerVersionUpdated":
                    for version in params["versions"]:
                        if version["status"] == "activated":
                            activated.add(version["registrationId"])
            self.events.clear()
            if registrations & activated:
                return sorted(registrations & activated)[0]
            remaining = deadline - time.time()
            assert remaining > 0, f"no activated service worker for {scope}: {registrations}"
            try:
                self.events.append(json.loads(self.socket.recv(timeout=remaining)))
            except TimeoutError:
                pass

