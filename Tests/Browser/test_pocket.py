"""Sangha in the pocket: installable, open without a network, and no sit lost.

The service worker keeps the static files when it installs and each page opened; with the
server stopped, a sitting page opened before opens from it, runs its sit and keeps the sit on the
device; when the server is back, the sit is sent once, however many pages load."""

import datetime
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import (button, eventually, fill, make_driver, press, screenshot, settled, shows, shows_heading, sign_in,
                      sign_out, signed_in_as)

pytestmark = pytest.mark.usefixtures("signed_in")


def controlled(browser):
    """Waits until the service worker controls the page (it claims pages as it activates)."""
    eventually(browser, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), timeout=15)


def kept_pages(browser):
    return browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        caches.open("sangha-pages").then((cache) => cache.keys()).then((keys) => done(keys.map((k) => new URL(k.url).pathname)));
    """)


def test_chromium_finds_nothing_that_stops_installing(server, browser):
    browser.get(server.url + "/")
    controlled(browser)
    errors = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert errors.get("installabilityErrors") == [], errors
    manifest = browser.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest.get("errors") == [], manifest
    assert browser.find_element(By.CSS_SELECTOR, 'meta[name="theme-color"]').get_attribute("content")


def _short_profile(server, browser):
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Two seconds")
    button(browser, "Create profile").click()
    assert shows_heading(browser, "Two seconds")
    fill(browser, "Duration", "00:02")
    button(browser, "Save").click()
    assert shows(browser, "Profile saved.")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Sit with this profile").click())
    assert shows(browser, "00:02 — The session ends")
    return browser.current_url


def history_rows(browser):
    browser.implicitly_wait(0)
    try:
        return [row.text for row in browser.find_elements(By.CSS_SELECTOR, ".history-table tbody tr")]
    finally:
        browser.implicitly_wait(3)


def test_a_sit_without_a_server_is_kept_on_the_device_and_recorded_once_when_it_is_back(server, browser):
    sitting = _short_profile(server, browser)
    controlled(browser)
    browser.get(sitting)  # kept by the worker, now that it controls the site
    eventually(browser, lambda d: any(page.endswith("/sit") for page in kept_pages(d)))

    server.halt()
    browser.get(sitting)
    assert shows(browser, "You are offline. This page is from ")
    # What the script puts on the audio clock, recorded instead of played: the bells' bytes
    # come from the worker, and ring at 0 and 2 s.
    browser.execute_script("""
        window.decoded = []; window.starts = [];
        window.AudioContext = class {
            constructor() { this.began = performance.now(); this.destination = {}; }
            get currentTime() { return (performance.now() - this.began) / 1000; }
            createBufferSource() { return { connect() {}, start: (time) => window.starts.push(time) }; }
            decodeAudioData(bytes) { window.decoded.push(bytes.byteLength); return Promise.resolve({}); }
            suspend() { return Promise.resolve(); }
            resume() { return Promise.resolve(); }
            close() { return Promise.resolve(); }
        };
    """)
    button(browser, "Start").click()
    assert shows(browser, "Session complete. Saved on this device. It will be sent when Sangha can be reached.",
                 timeout=15)
    screenshot(browser, "sitting-offline")
    assert browser.execute_script("return window.decoded.length") >= 1
    assert all(size > 1000 for size in browser.execute_script("return window.decoded"))
    assert len(browser.execute_script("return window.starts")) >= 2
    # A page never opened on this device: "You are offline."
    browser.get(server.url + "/groups")
    assert shows_heading(browser, "You are offline.")

    server.resume()
    browser.get(server.url + "/history")
    # Sent as the page loads; the next load shows it recorded, and nothing waits.
    eventually(browser, lambda d: not d.find_element(By.CSS_SELECTOR, "[data-outbox-count]").is_displayed(),
               timeout=10)
    browser.get(server.url + "/history")
    rows = history_rows(browser)
    assert len(rows) == 1 and "Two seconds" in rows[0] and "00:02" in rows[0], rows
    # More loads and a second tab send nothing more.
    browser.switch_to.new_window("tab")
    browser.get(server.url + "/")
    browser.get(server.url + "/history")
    time.sleep(0.5)
    browser.refresh()
    assert len(history_rows(browser)) == 1


def test_sits_waiting_are_counted_on_home_and_history(server, browser):
    sitting = _short_profile(server, browser)
    controlled(browser)
    browser.get(sitting)
    server.halt()
    for _ in range(2):
        browser.get(sitting)  # from the worker, with the server stopped
        assert shows(browser, "You are offline.")
        button(browser, "Start").click()
        assert shows(browser, "Saved on this device.", timeout=15)
    browser.get(server.url + "/")  # opened before (signed_in), so kept
    assert shows(browser, "2 sits on this device are waiting to be sent.")
    server.resume()
    browser.get(server.url + "/")
    eventually(browser, lambda d: not d.find_element(By.CSS_SELECTOR, "[data-outbox-count]").is_displayed(),
               timeout=10)


def kept_sits(browser):
    return browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const request = indexedDB.open("sangha", 1);
        request.onsuccess = () => {
            const all = request.result.transaction("sits").objectStore("sits").getAll();
            all.onsuccess = () => done(all.result.map((sit) => sit.fields.profileName));
        };
    """)


def test_signing_out_drops_every_kept_page(server, browser):
    browser.get(server.url + "/history")
    controlled(browser)
    browser.get(server.url + "/history")
    eventually(browser, lambda d: "/history" in kept_pages(d))
    press(browser, "Sign out")
    assert shows_heading(browser, "Sign in")
    assert shows(browser, "You are signed out.")  # the form's flash, on the page it leads to
    assert kept_pages(browser) == []


def test_signing_out_offline_says_so_and_leaves_the_person_signed_in(server, browser):
    browser.get(server.url + "/history")
    controlled(browser)
    browser.get(server.url + "/history")
    eventually(browser, lambda d: "/history" in kept_pages(d))
    server.halt()
    button(browser, "Sign out").click()
    assert shows(browser, "You are offline: you are not signed out yet.")
    screenshot(browser, "sign-out-offline")
    assert shows_heading(browser, "History")  # the same page, nothing pretended
    assert "/history" in kept_pages(browser)
    server.resume()
    browser.get(server.url + "/history")
    assert signed_in_as(browser) == "Ada Lovelace"
    sign_out(browser)
    assert signed_in_as(browser) is None


def kept_language(browser, url):
    """The language of the copy of `url` the worker keeps, or None."""
    return browser.execute_async_script("""
        const [url, done] = arguments;
        caches.open("sangha-pages").then((cache) => cache.match(url)).then((kept) => kept ? kept.text() : "")
            .then((text) => done((text.match(/<html lang="([^"]+)"/) || [])[1] || null));
    """, url)


def test_a_page_kept_in_german_says_in_german_that_it_is_offline(server, browser):
    page = server.url + "/history"
    browser.get(page)
    controlled(browser)
    browser.add_cookie({"name": "lang", "value": "de"})
    try:
        browser.get(page)
        eventually(browser, lambda d: kept_language(d, page) == "de")
        server.halt()
        browser.get(page)
        assert shows(browser, "Du bist offline. Diese Seite ist von ")
    finally:
        server.resume()
        browser.delete_cookie("lang")


def test_sits_waiting_survive_signing_out_and_go_when_the_same_person_signs_in_again(server, browser):
    """Clear-Site-Data is "cache" only: the sits kept in IndexedDB stay through a sign-out."""
    sitting = _short_profile(server, browser)
    controlled(browser)
    browser.get(sitting)
    eventually(browser, lambda d: any(page.endswith("/sit") for page in kept_pages(d)))
    server.halt()
    browser.get(sitting)
    assert shows(browser, "You are offline. This page is from ")
    button(browser, "Start").click()
    assert shows(browser, "Saved on this device.", timeout=15)
    assert kept_sits(browser) == ["Two seconds"]
    server.resume()
    # Signed out from the page kept offline, before any page sends the sit.
    press(browser, "Sign out")
    assert shows(browser, "You are signed out.")
    assert kept_pages(browser) == []
    assert kept_sits(browser) == ["Two seconds"]  # nothing sent, nothing lost
    sign_in(browser, server)
    browser.get(server.url + "/history")
    eventually(browser, lambda d: kept_sits(d) == [], timeout=10)
    browser.get(server.url + "/history")
    rows = history_rows(browser)
    assert len(rows) == 1 and "Two seconds" in rows[0], rows


# Controls too small to press: WCAG 2.2's target size (minimum) is 24 × 24 CSS pixels. Links in
# running text are exempt (the "inline" exception); every other control is measured. axe-core's
# own rule is newer than the one axe-selenium-python bundles, so the test measures.
SMALL_TARGETS = """
    const small = [];
    for (const element of document.querySelectorAll(
        'button, select, input:not([type=hidden]), textarea, summary, .site-header a, .form-actions a, .pager a')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;  // not shown
      if (element.type === 'checkbox' || element.type === 'radio') {
        // A checkbox counts with its label, which presses it too.
        const label = element.id && document.querySelector(`label[for="${element.id}"]`);
        const both = label ? label.getBoundingClientRect() : box;
        if (Math.max(box.height, both.height) >= 24) continue;
      }
      if (box.width < 24 || box.height < 24)
        small.push(`${element.outerHTML.slice(0, 80)} ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
    return small;
"""


def test_every_page_on_a_phone_scrolls_only_down_with_one_row_of_header_and_controls_large_enough(server):
    phone = make_driver(width=360, height=740, phone=True)
    try:
        from conftest import sign_out, sign_up
        phone.get(server.url + "/sign-up")
        sign_up(phone, server, name="Maria Goeppert Mayer", username="maria")
        sitting = _short_profile(server, phone)
        phone.get(server.url + "/groups")
        fill(phone, "Name", "Morning sangha")
        press(phone, "Create group")
        group = phone.current_url
        starts = (datetime.date.today() + datetime.timedelta(days=30)).isoformat() + "T07:00"
        phone.execute_script("arguments[0].value = arguments[1];", phone.find_element(By.NAME, "startsAt"), starts)
        press(phone, "Schedule a sit")
        assert shows(phone, "The sit is scheduled.")
        pages = ["/", "/profiles", sitting.replace("/sit", ""), sitting, "/history", "/history/import", "/friends",
                 "/friends/new", "/groups", group, group + "/sits/1", "/me", "/settings", "/admin"]
        for path in pages:
            phone.get(path if path.startswith("http") else server.url + path)
            width = phone.execute_script("return document.documentElement.scrollWidth")
            assert width <= 360, f"{path} scrolls sideways ({width} px)"
            header = phone.execute_script("return document.querySelector('.site-header').getBoundingClientRect().height")
            assert header <= 64, f"{path}: the header takes {header} px, more than one row"
            bar = phone.execute_script("return document.querySelector('.site-header nav').getBoundingClientRect()")
            assert round(bar["bottom"]) == 740 and bar["height"] <= 60, f"{path}: the sections' bar is {bar}"
            assert phone.execute_script(SMALL_TARGETS) == [], path
        phone.get(sitting)
        screenshot(phone, "sitting-phone")
        phone.get(group)
        screenshot(phone, "group-phone")
        sign_out(phone)
        assert phone.execute_script("return document.documentElement.scrollWidth") <= 360
        assert phone.execute_script(SMALL_TARGETS) == []
    finally:
        phone.quit()
