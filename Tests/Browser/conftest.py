"""Shared fixtures: a running `sangha serve` on free loopback ports, and headless Chromium.

Every page but /sign-up, /sign-in and /health needs someone signed in: `sign_up` creates an
account through the sign-up page, and a module with `pytestmark = pytest.mark.usefixtures("signed_in")`
runs each test with its browsers already signed up on the test's server.

Elements are found as a person finds them: by label, button text, link text and heading.
"""
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "sangha"
GALLERY = ROOT / ".build" / "debug" / "sangha-gallery"
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", ROOT / ".build" / "screenshots"))
# Long enough and uncommon enough for the sign-up rules.
PASSWORD = "correct horse battery"


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`sangha serve` in its own data folder, stopped by its process id. Passwords are hashed at
    bcrypt's lowest cost, so signing up is quick in the debug build."""

    def __init__(self, *extra):
        assert BINARY.exists(), f"{BINARY} is missing: build it first (make test does)"
        self.data = Path(tempfile.mkdtemp(prefix="sangha-browser-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.argv = self.arguments(*extra)
        self.start(self.argv)

    def arguments(self, *extra):
        arguments = [str(BINARY), "serve", "--port", str(self.port), "--data-dir", str(self.data),
                     "--resources-dir", str(ROOT), "--log-level", "warning", "--password-cost", "4",
                     # The tests sign up many people from loopback.
                     "--sign-up", "open", "--address-limit", "0", *extra]
        if "--friend-service-url" not in extra:
            arguments += ["--friend-service-port", str(free_port())]
        return arguments

    def start(self, arguments):
        self.log = open(self.data / "sangha.log", "w")
        self.process = subprocess.Popen(arguments, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("sangha did not start:\n" + (self.data / "sangha.log").read_text())

    def halt(self):
        """Stops the server and keeps its data: `resume` starts it again on the same port."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()

    def resume(self):
        self.start(self.argv)

    def stop(self):
        if self.process.poll() is None:
            self.halt()
        shutil.rmtree(self.data, ignore_errors=True)


class Gallery(Server):
    """`sangha-gallery`: every fixture rendered by swift-mustache from the templates on disk, in
    the app's middleware."""

    def arguments(self, *extra):
        assert GALLERY.exists(), f"{GALLERY} is missing: build it first (make test does)"
        return [str(GALLERY), "--port", str(self.port), str(ROOT)]


@pytest.fixture
def server():
    running = Server()
    yield running
    running.stop()


def make_driver(javascript=True, width=1280, height=900, phone=False):
    options = webdriver.ChromeOptions()
    if phone:
        # A 360 px wide phone: headless Chromium's windows are never narrower than 500 px.
        options.add_experimental_option(
            "mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2}})
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--force-prefers-reduced-motion"):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.implicitly_wait(3)
    return driver


@pytest.fixture
def browser():
    driver = make_driver()
    yield driver
    driver.quit()


@pytest.fixture
def browser_without_javascript():
    driver = make_driver(javascript=False)
    yield driver
    driver.quit()


@pytest.fixture
def signed_in(request, server):
    """Each browser the test uses (`browser`, `browser_without_javascript`) signed up on the
    test's server as Ada Lovelace (the first signs up, a second signs in), and on the home page."""
    used = [name for name in ("browser", "browser_without_javascript") if name in request.fixturenames]
    for index, name in enumerate(used):
        driver = request.getfixturevalue(name)
        if index == 0:
            sign_up(driver, server)
        else:
            sign_in(driver, server)  # the same person in a second browser
            driver.get(server.url + "/")


# What a person sees and uses -------------------------------------------------------------

def field(driver, label):
    """The input or select labelled `label`."""
    element = driver.find_element(By.XPATH, f"//label[normalize-space()='{label}']")
    return driver.find_element(By.ID, element.get_attribute("for"))


def _page_was_replaced(error):
    """A page that a click's navigation replaced while a command looked at it."""
    from selenium.common.exceptions import StaleElementReferenceException
    message = str(error)
    return isinstance(error, StaleElementReferenceException) or "does not belong to the document" in message \
        or "unhandled inspector error" in message


def settled(driver, action, timeout=5):
    """Runs `action` again while it meets a page that was being replaced meanwhile."""
    from selenium.common.exceptions import WebDriverException
    deadline = time.time() + timeout
    while True:
        try:
            return action(driver)
        except WebDriverException as error:
            if not _page_was_replaced(error) or time.time() > deadline:
                raise
        time.sleep(0.05)


def press(driver, label, timeout=10):
    """Presses the button `label` and waits for the page its form leads to."""
    from selenium.webdriver.support.ui import WebDriverWait

    def click(d):
        page = d.find_element(By.TAG_NAME, "html")
        button(d, label).click()
        return page
    old = settled(driver, click)

    def replaced(_):
        # Selenium's staleness_of knows only StaleElementReference; Chrome may instead say the
        # node "does not belong to the document": both mean the new page is there.
        from selenium.common.exceptions import WebDriverException
        try:
            old.is_enabled()
            return False
        except WebDriverException as error:
            if _page_was_replaced(error):
                return True
            raise
    WebDriverWait(driver, timeout).until(replaced)


def eventually(driver, condition, timeout=5):
    """Waits until `condition(driver)` holds, across page replacements."""
    deadline = time.time() + timeout
    while not settled(driver, condition, timeout):
        if time.time() > deadline:
            raise AssertionError("the page never showed what was expected:\n" + settled(driver, text))
        time.sleep(0.05)
    return True


def value(driver, label):
    """What the field labelled `label` holds."""
    return settled(driver, lambda d: field(d, label).get_attribute("value"))


def fill(driver, label, value):
    def typing(d):
        element = field(d, label)
        element.clear()
        element.send_keys(value)
    settled(driver, typing)


def button(driver, text):
    """The button `text`, scrolled to the middle of the screen, as a person would (on a phone
    the sections' bar covers the bottom of it, and a click there would land on the bar)."""
    element = driver.find_element(By.XPATH, f"//button[normalize-space()='{text}']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    return element


def named(driver, accessible_name):
    """A control by its accessible name (aria-label), as a screen reader announces it."""
    return driver.find_element(By.XPATH, f"//*[@aria-label='{accessible_name}']")


def heading(driver, level=1):
    return driver.find_element(By.TAG_NAME, f"h{level}").text


def text(driver):
    return driver.find_element(By.TAG_NAME, "main").text


def screenshot(driver, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def shows(driver, expected, timeout=5):
    """Waits until the page's main content contains `expected` (a click's page may still load)."""
    return eventually(driver, lambda d: expected in text(d), timeout)


def shows_heading(driver, expected, timeout=5):
    """Waits until the page's first heading reads `expected`."""
    return eventually(driver, lambda d: heading(d) == expected, timeout)


def signed_in_as(driver):
    """The name in the page header's account links, or None on a page of someone signed out."""
    driver.implicitly_wait(0)  # no waiting for what a signed-out page never has
    try:
        accounts = driver.find_elements(By.CSS_SELECTOR, ".site-header .account a[href='/me']")
        return accounts[0].text if accounts else None
    finally:
        driver.implicitly_wait(3)


def sign_up(driver, server, username="ada", name="Ada Lovelace", password=PASSWORD, next=None):
    """Creates an account on the sign-up page as a person does, and waits until the page it
    leads to (`next`, else home) shows the person signed in."""
    driver.get(server.url + "/sign-up" + (f"?next={next}" if next else ""))
    fill(driver, "Name", name)
    fill(driver, "Username", username)
    fill(driver, "Password", password)
    button(driver, "Create account").click()
    eventually(driver, lambda d: signed_in_as(d) == name, timeout=10)


def sign_in(driver, server, username="ada", password=PASSWORD, name="Ada Lovelace"):
    """Signs in on the sign-in page as a person does."""
    driver.get(server.url + "/sign-in")
    fill(driver, "Username", username)
    fill(driver, "Password", password)
    button(driver, "Sign in").click()
    eventually(driver, lambda d: signed_in_as(d) == name, timeout=10)


def sign_out(driver):
    """Presses the header's Sign out button and waits for the sign-in page."""
    settled(driver, lambda d: button(d, "Sign out").click())
    shows_heading(driver, "Sign in")

