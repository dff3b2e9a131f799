"""The pages a person meets in their language: the sign-in and sign-up pages (with the picker at
their foot) and the navigation, in each of the eight languages: valid HTML, no serious
accessibility violation, no sideways scroll at 360 px; the picker and Settings' "Language" as a
person uses them; Arabic from the right."""
import re
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import PASSWORD, Server, button, eventually, field, heading, make_driver, sign_up
from test_validity_and_accessibility import assert_no_serious_violation, nu_check

LANGUAGES = ["en", "de", "fr", "es", "pt-BR", "vi", "pl", "ar"]
PAGES = ["/sign-in", "/sign-up"]


def fetch(server, path, language):
    request = urllib.request.Request(server.url + path, headers={"Accept-Language": language})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers["Content-Language"] == language
        return response.read().decode()


@pytest.fixture(scope="module")
def pages():
    running = Server()
    try:
        yield running, {(path, language): fetch(running, path, language) for path in PAGES for language in LANGUAGES}
    finally:
        running.stop()


@pytest.fixture(scope="module")
def auditor():
    driver = make_driver()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def phone():
    driver = make_driver(width=360, height=800, phone=True)
    yield driver
    driver.quit()


def show(driver, server, html):
    """The HTML the server sent, written into a page of the same server, so its styles apply."""
    driver.get(server.url + "/sign-in")
    driver.execute_script("document.open(); document.write(arguments[0]); document.close();", html)
    WebDriverWait(driver, 5).until(lambda d: d.execute_script(
        "return document.readyState === 'complete' && document.styleSheets.length > 0"
        " && document.styleSheets[0].cssRules.length > 0"))


def test_every_language_is_its_own(pages):
    _, html = pages
    for path in PAGES:
        headings = {re.search(r"<h1>(.*?)</h1>", html[(path, language)]).group(1) for language in LANGUAGES}
        assert len(headings) == len(LANGUAGES), f"{path}: {headings}"
    for language in LANGUAGES:
        direction = "rtl" if language == "ar" else "ltr"
        assert f'<html lang="{language}" dir="{direction}">' in html[("/sign-in", language)]


def nu_check_pages(html):
    """The W3C Nu checker over every (path, language) page, each written to a file of its own."""
    folder = Path(tempfile.mkdtemp(prefix="sangha-validity-languages-"))
    files = []
    for (path, language), page in html.items():
        target = folder / f"{path.strip('/').replace('/', '-') or 'home'}-{language}.html"
        target.write_text(page)
        files.append(str(target))
    nu_check(files)


def test_every_language_is_valid_html(pages):
    nu_check_pages(pages[1])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path", PAGES)
def test_every_language_has_no_serious_accessibility_violation(pages, auditor, path, language):
    server, html = pages
    show(auditor, server, html[(path, language)])
    assert_no_serious_violation(auditor, f"{path} in {language}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_fits_a_phone(pages, phone, language):
    server, html = pages
    for path in PAGES:
        show(phone, server, html[(path, language)])
        width = phone.execute_script("return document.documentElement.scrollWidth")
        assert width <= 360, f"{path} in {language} scrolls sideways on a phone ({width} px)"


def test_the_picker_and_settings_as_a_person_uses_them():
    server = Server()
    browser = make_driver()
    try:
        browser.get(server.url + "/sign-up")
        assert heading(browser) == "Create account"
        Select(field(browser, "Language")).select_by_visible_text("Deutsch")
        button(browser, "Change").click()
        eventually(browser, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de")
        assert browser.current_url.endswith("/sign-up")
        assert heading(browser) == "Konto erstellen"
        browser.get(server.url + "/sign-in")
        assert Select(field(browser, "Sprache")).first_selected_option.text == "Deutsch"
        # A new account keeps "As my browser says"; the lang cookie still speaks for this browser.
        browser.delete_cookie("lang")
        sign_up(browser, server)
        browser.get(server.url + "/settings")
        Select(field(browser, "Language")).select_by_visible_text("العربية")
        button(browser, "Save").click()
        eventually(browser, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl")
        # Arabic: the navigation starts at the right.
        links = browser.find_elements(By.CSS_SELECTOR, ".site-header nav a")
        first, last = links[0].rect, links[-1].rect
        assert first["x"] > last["x"], (first, last)
        brand = browser.find_element(By.CSS_SELECTOR, ".site-header .brand").rect
        assert brand["x"] > browser.execute_script("return document.documentElement.clientWidth") / 2
    finally:
        browser.quit()
        server.stop()


# Every page a signed-in person visits, in every language ---------------------------------

class Reader:
    """A signed-in person without a browser, cookies kept, asking for each page in a language."""

    def __init__(self, server):
        self.url = server.url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())

    def open(self, path, data=None, language="en"):
        """The page's final address (after redirects) and its HTML, error pages included."""
        request = urllib.request.Request(self.url + path, data, headers={"Accept-Language": language})
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.url, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.url, error.read().decode()

    def post(self, path, form, page):
        """Sends `form` to `path` as the form on `page` does, with that page's form token."""
        token = re.search(r'name="_csrf" value="([^"]+)"', self.open(page)[1]).group(1)
        return self.open(path, urllib.parse.urlencode({"_csrf": token, **form}).encode())


# Titles that are what Ada named (her group, her profile, herself), or a word many languages share.
OWN_WORDS = ["Morning sangha", "Morning sit", "Ada Lovelace", "Offline"]




def number_in(url, pattern):
    found = re.search(pattern, url)
    assert found, f"{url} is not {pattern}"
    return found.group(1)


@pytest.fixture(scope="module")
def signed_in_pages():
    """A live server, Ada (its administrator) with a profile, a sit, a group and the group's sit
    (the day after tomorrow: a sit may be scheduled at most a year ahead), and each page she visits
    in each language, as sent."""
    running = Server()
    try:
        ada = Reader(running)
        ada.post("/sign-up", {"name": "Ada Lovelace", "username": "ada", "password": PASSWORD, "next": "/"},
                 "/sign-up")
        profile = number_in(ada.post("/profiles", {"name": "Morning sit"}, "/profiles")[0], r"/profiles/(\d+)")
        ada.post("/history/sessions", {"date": "2026-11-20", "startTime": "07:00", "duration": "20:00",
                                       "what": "Morning sit", "note": "Quiet."}, "/history")
        sit = re.search(r"/history/sessions/(\d+)", ada.open("/history")[1])
        group = number_in(ada.post("/groups", {"name": "Morning sangha"}, "/groups")[0], r"/groups/(\d+)")
        group_sit = re.search(r'/groups/\d+/sits/(\d+)', ada.post(
            f"/groups/{group}/sits",
            {"startsAt": (datetime.now() + timedelta(days=2)).strftime("%Y-%m-%dT07:00"), "profile": profile},
            f"/groups/{group}")[1])
        assert sit, "the sit Ada added is on her history page"
        assert group_sit, "the sit Ada scheduled is on her group's page"
        paths = ["/", "/profiles", f"/profiles/{profile}", f"/profiles/{profile}/sit", "/history",
                 "/history/import", "/friends", "/friends/new", "/groups", f"/groups/{group}", "/me", "/settings",
                 "/admin", "/offline", "/nowhere"]
        paths += [f"/history/sessions/{sit.group(1)}", f"/groups/{group}/sits/{group_sit.group(1)}"]
        yield running, {(path, language): ada.open(path, language=language)[1]
                        for path in paths for language in LANGUAGES}
    finally:
        running.stop()


def test_every_signed_in_page_speaks_each_language(signed_in_pages):
    _, html = signed_in_pages
    paths = sorted({path for path, _ in html})
    assert len(paths) == 17, paths
    english = []  # a title the same as English's (Spanish and Portuguese may share one)
    for path in paths:
        for language in LANGUAGES:
            direction = "rtl" if language == "ar" else "ltr"
            assert f'<html lang="{language}" dir="{direction}">' in html[(path, language)], (path, language)
        titles = {language: re.search(r"<title>(.*?)</title>", html[(path, language)]).group(1)
                  for language in LANGUAGES}
        english += [f"{path} in {language}: {title}" for language, title in titles.items()
                    if language != "en" and title == titles["en"] and not any(word in title for word in OWN_WORDS)]
    assert not english, "a title still in English:\n" + "\n".join(english)
    # The group sit's script speaks the page's language; in English, its own words.
    sit_page = next(path for path in paths if "/sits/" in path)
    assert "data-begins-in" not in html[(sit_page, "en")]
    for language in LANGUAGES[1:]:
        assert re.search(r'data-begins-in="[^"]*\{time\}', html[(sit_page, language)]), language


def test_every_signed_in_page_is_valid_html_in_each_language(signed_in_pages):
    nu_check_pages(signed_in_pages[1])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_signed_in_page_is_accessible_and_fits_a_phone_in_each_language(
        signed_in_pages, auditor, phone, language):
    server, html = signed_in_pages
    for path in sorted({path for path, _ in html}):
        show(auditor, server, html[(path, language)])
        assert_no_serious_violation(auditor, f"{path} in {language}")
        show(phone, server, html[(path, language)])
        width = phone.execute_script("return document.documentElement.scrollWidth")
        widest = phone.execute_script(
            "return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361)"
            ".filter(e => ![...e.children].some(c => c.getBoundingClientRect().right > 361))"
            ".slice(0, 3).map(e => e.tagName + '.' + e.className + ': ' + e.textContent.trim().slice(0, 60))")
        assert width <= 360, f"{path} in {language} scrolls sideways on a phone ({width} px): {widest}"
