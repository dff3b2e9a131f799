"""A person creates and edits a meditation profile in a real browser."""
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import (button, eventually, field, fill, make_driver, named, screenshot, settled, shows, shows_heading, sign_up, text,
                      value)

pytestmark = pytest.mark.usefixtures("signed_in")


def test_create_a_profile_turn_warm_up_on_change_durations_and_save(server, browser):
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Morning sit")
    button(browser, "Create profile").click()
    assert shows_heading(browser, "Morning sit")
    assert shows(browser, "Created Morning sit.")
    sections = [element.text for element in browser.find_elements(By.TAG_NAME, "h2")]
    assert sections == ["Time", "Warm Up", "Cool Down"]
    assert not browser.find_elements(By.XPATH, "//label[normalize-space()='Warm Up duration']")

    field(browser, "Warm Up on").click()  # the script saves at once, and the section opens
    assert value(browser, "Warm Up duration") == "05:00"
    fill(browser, "Duration", "25")
    fill(browser, "Warm Up duration", "2:30")
    button(browser, "Save").click()
    assert shows(browser, "Profile saved.")
    assert value(browser, "Duration") == "25:00"
    assert value(browser, "Warm Up duration") == "02:30"
    assert "27:30" in browser.find_element(By.CLASS_NAME, "total").text
    screenshot(browser, "profile-editor")

    browser.get(server.url + "/")
    assert shows(browser, "Morning sit")
    screenshot(browser, "home")


def test_a_bad_duration_is_explained_and_the_values_kept(server, browser):
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Evening")
    button(browser, "Create profile").click()
    fill(browser, "Duration", "soon")
    fill(browser, "Name", "Evening sit")
    button(browser, "Save").click()
    message = browser.find_element(By.ID, "field-main-duration-error")
    assert message.text == "Enter a duration like 07:30"
    assert "field-main-duration-error" in field(browser, "Duration").get_attribute("aria-describedby")
    assert value(browser, "Duration") == "soon"
    assert value(browser, "Name") == "Evening sit"


def test_without_javascript_turning_a_section_on_is_a_save(server, browser_without_javascript):
    browser = browser_without_javascript
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Plain")
    button(browser, "Create profile").click()
    field(browser, "Cool Down on").click()
    button(browser, "Save").click()
    assert shows(browser, "Profile saved.")
    assert value(browser, "Cool Down duration") == "05:00"


def test_the_pages_read_well_on_a_phone(server):
    phone = make_driver(width=360, height=800, phone=True)
    try:
        sign_up(phone, server)
        phone.get(server.url + "/profiles")
        fill(phone, "Name", "Phone")
        button(phone, "Create profile").click()
        assert shows_heading(phone, "Phone")
        assert phone.execute_script("return window.innerWidth") == 360
        width = phone.execute_script("return document.documentElement.scrollWidth")
        assert width <= 360, f"the editor scrolls sideways on a phone ({width} px)"
        screenshot(phone, "profile-editor-phone")
        for path in ["/friends", "/profiles/1/sit", "/", "/history"]:
            phone.get(server.url + path)
            assert phone.execute_script("return document.documentElement.scrollWidth") <= 360, path
        phone.get(server.url + "/profiles/1/sit")
        assert phone.execute_script("""
            const token = document.querySelector("[data-sitter-record] [name=_csrf]").value;
            const form = new URLSearchParams({_csrf: token, profile: "1", seconds: "1500", completed: "true",
                startedAt: new Date(Date.now() - 1500000).toISOString()});
            return fetch("/sessions", {method: "POST", body: form}).then(response => response.status);
        """) == 200
        phone.get(server.url + "/history")
        assert shows(phone, "Sessions\n1")
        assert phone.execute_script("return document.documentElement.scrollWidth") <= 360
        screenshot(phone, "history-phone")
    finally:
        phone.quit()



def _three_second_profile(server, browser):
    """A profile of a three-second meditation, its sitting page open."""
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Three seconds")
    button(browser, "Create profile").click()
    assert shows_heading(browser, "Three seconds")
    fill(browser, "Duration", "00:03")
    button(browser, "Save").click()
    assert shows(browser, "Profile saved.")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Sit with this profile").click())
    assert shows(browser, "00:03 — The session ends")


def test_sitting_runs_a_three_second_profile_to_the_end(server, browser):
    _three_second_profile(server, browser)
    assert not button(browser, "Pause").is_displayed()
    button(browser, "Start").click()
    assert button(browser, "Pause").is_displayed()
    assert not button(browser, "Resume").is_displayed()
    assert shows(browser, "Session complete. Session saved.", timeout=10)
    assert not button(browser, "Stop").is_displayed()
    assert button(browser, "Start again").is_displayed()
    assert shows(browser, "Time left 00:00")
    screenshot(browser, "sitting")
    # The session is in the history and on the home page. The script's post said it was saved
    # on the sitting page; no other page says so again (a script's post gets no flash).
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "History").click())
    assert shows_heading(browser, "History")
    assert "Session saved." not in text(browser)
    row = browser.find_element(By.CSS_SELECTOR, ".history-table tbody tr").text
    assert "Three seconds" in row and "00:03" in row and "Completed" in row
    assert shows(browser, "Streak\n1 day")
    days = browser.find_elements(By.CSS_SELECTOR, ".chart-days li")
    assert days[-1].get_attribute("textContent").endswith(": 3 s in 1 session")
    browser.get(server.url + "/")
    practice = browser.find_element(By.CSS_SELECTOR, "[aria-labelledby=panel-practice]").text
    assert "1 day" in practice and "3 s" in practice
    assert "Session saved." not in text(browser)
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Sit with Three seconds").click())
    assert shows_heading(browser, "Three seconds")


def test_a_sit_sent_in_the_background_leaves_no_line_on_the_next_page(server, browser):
    """A sit kept on the device and sent by a page as it loads: that page and the next say
    nothing of it but the count (the sent sit's flash would show on whatever page came next)."""
    _three_second_profile(server, browser)
    # A finished sit kept as the sitting page keeps one when it cannot post it.
    browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const form = document.querySelector("[data-sitter-record]");
        form.elements.startedAt.value = new Date(Date.now() - 60000).toISOString().slice(0, 19) + "Z";
        form.elements.seconds.value = "3";
        form.elements.completed.value = "true";
        const fields = Object.fromEntries([...new FormData(form)].filter(([name]) => name !== "_csrf"));
        const person = Number(document.querySelector('meta[name="sangha-person"]').content);
        const sit = { clientId: crypto.randomUUID(), person, url: form.action, fields, keptAt: Date.now() };
        const request = indexedDB.open("sangha", 1);
        request.onupgradeneeded = () => {
            request.result.createObjectStore("sits", { keyPath: "clientId" });
            request.result.createObjectStore("session");
        };
        request.onsuccess = () => {
            const transaction = request.result.transaction("sits", "readwrite");
            transaction.objectStore("sits").put(sit);
            transaction.oncomplete = () => done(true);
        };
    """)
    browser.get(server.url + "/")  # sends it as it loads
    eventually(browser, lambda d: d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const request = indexedDB.open("sangha", 1);
        request.onsuccess = () => {
            const count = request.result.transaction("sits").objectStore("sits").count();
            count.onsuccess = () => done(count.result === 0);
        };
    """), timeout=10)
    assert "Session saved." not in text(browser)
    browser.get(server.url + "/history")
    assert shows(browser, "Three seconds")
    assert "Session saved." not in text(browser)
    browser.get(server.url + "/groups")
    assert "Session saved." not in text(browser)


def test_the_timer_writes_its_figures_as_the_server_does(server, browser):
    """An hour and a half: hh:mm:ss from an hour, as the page showed before the start."""
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Long")
    button(browser, "Create profile").click()
    assert shows_heading(browser, "Long")
    fill(browser, "Duration", "01:30:00")
    button(browser, "Save").click()
    assert shows(browser, "Profile saved.")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Sit with this profile").click())
    left = lambda d: d.find_element(By.CSS_SELECTOR, "[data-sitter-left]").text
    assert left(browser) == "01:30:00"
    button(browser, "Start").click()
    eventually(browser, lambda d: left(d).startswith("01:29:5"), timeout=10)
    button(browser, "Stop").click()
    assert shows(browser, "Session stopped at 00:0")


def test_a_repeating_sound_is_one_row_that_rings_at_each_interval(server, browser):
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Every two seconds")
    button(browser, "Create profile").click()
    assert shows_heading(browser, "Every two seconds")
    field(browser, "Warm Up on").click()  # the script saves at once, and the section opens
    assert value(browser, "Warm Up duration") == "05:00"
    fill(browser, "Warm Up duration", "00:07")
    fill(browser, "Duration", "00:01")
    field(browser, "Repeating sound").click()
    fill(browser, "Every", "00:02")
    fill(browser, "Strokes", "2")
    button(browser, "Save").click()
    assert shows(browser, "Profile saved.")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Sit with this profile").click())
    assert shows(browser, "00:08 — The session ends")
    rows = [row.text for row in browser.find_elements(By.CSS_SELECTOR, ".timeline li")]
    repeating = [row for row in rows if "every" in row]
    assert repeating == ["00:02 — Bell rings 2 times every 00:02 from 00:02 to 00:07"]
    # What the script puts on the audio clock, recorded instead of played: the repeating sound
    # at 2, 4 and 6 s (not at 7, where the section ends), each of its 2 strokes 2.5 s apart.
    browser.execute_script("""
        window.starts = [];
        window.AudioContext = class {
            constructor() { this.currentTime = 0; this.destination = {}; }
            createBufferSource() { return { connect() {}, start: (time) => window.starts.push(time) }; }
            decodeAudioData() { return Promise.resolve({}); }
            suspend() { return Promise.resolve(); }
            resume() { return Promise.resolve(); }
            close() { return Promise.resolve(); }
        };
    """)
    button(browser, "Start").click()
    eventually(browser, lambda d: d.execute_script("return window.starts.length") >= 6)
    starts = sorted(round(start - 0.1, 3) for start in browser.execute_script("return window.starts"))
    assert all(time in starts for time in [2, 4, 4.5, 6, 6.5, 8.5])
    assert 9 not in starts and 7.0 + 2.5 not in starts


def test_the_history_shows_the_last_two_days_of_practice(server, browser):
    """Sessions recorded as the sitting page records them, today and yesterday (/sessions
    records the last 30 days only): the figures, the bars, and the table agree."""
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Morning")
    button(browser, "Create profile").click()
    assert shows_heading(browser, "Morning")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Sit with this profile").click())
    statuses = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const token = document.querySelector("[data-sitter-record] [name=_csrf]").value;
        // Each session starts within the part of its day that has passed (all of yesterday,
        // today until now), spread through it, so it is on its day, not in the future and
        // within the last 30 days at any hour the test runs.
        const now = Date.now();
        const midnight = new Date(now);
        midnight.setHours(0, 0, 0, 0);
        const start = (daysAgo, index) => {
            const day = new Date(midnight);
            day.setDate(day.getDate() - daysAgo);
            const next = new Date(day);
            next.setDate(next.getDate() + 1);
            const end = Math.min(next.getTime(), now);
            return new Date(day.getTime() + (end - day.getTime()) * (index + 1) / 12).toISOString();
        };
        const sessions = [[0, 1500, true], [1, 1200, true], [1, 1800, true], [1, 600, false], [1, 1500, true],
                          [1, 2400, true], [1, 900, false], [1, 1500, true], [1, 3000, true], [1, 1200, true]];
        Promise.all(sessions.map(([daysAgo, seconds, completed], index) => fetch("/sessions", {
            method: "POST",
            body: new URLSearchParams({_csrf: token, profile: "1", seconds: String(seconds),
                completed: String(completed), startedAt: start(daysAgo, index)}),
        }).then(response => response.redirected ? 303 : response.status))).then(done);
    """)
    assert statuses == [303] * 10
    browser.get(server.url + "/history")
    assert shows(browser, "Total time\n4 h 20 min")
    assert shows(browser, "Sessions\n10")
    assert shows(browser, "Streak\n2 days")
    rows = browser.find_elements(By.CSS_SELECTOR, ".history-table tbody tr")
    assert len(rows) == 10
    assert [row.find_elements(By.TAG_NAME, "td")[3].text for row in rows].count("Stopped") == 2
    assert len(browser.find_elements(By.CSS_SELECTOR, ".chart-bars rect")) == 30
    days = [day.get_attribute("textContent") for day in browser.find_elements(By.CSS_SELECTOR, ".chart-days li")]
    assert len(days) == 30 and sum(1 for day in days if not day.endswith("nothing sat")) == 2
    assert days[-1].endswith(": 25 min in 1 session")
    screenshot(browser, "history")
    browser.get(server.url + "/")
    practice = browser.find_element(By.CSS_SELECTOR, "[aria-labelledby=panel-practice]").text
    assert "Streak\n2 days\nToday\n25 min\nSit with Morning" in practice
    screenshot(browser, "home-practice")


def test_sitting_pauses_resumes_and_stops(server, browser):
    _three_second_profile(server, browser)
    button(browser, "Start").click()
    button(browser, "Pause").click()
    assert shows(browser, "Paused at 00:0")
    left = browser.find_element(By.CSS_SELECTOR, "[data-sitter-left]").text
    time.sleep(1.5)
    assert browser.find_element(By.CSS_SELECTOR, "[data-sitter-left]").text == left  # the time waits
    button(browser, "Resume").click()
    button(browser, "Stop").click()
    assert shows(browser, "Session stopped at 00:0")
    assert button(browser, "Start again").is_displayed()
    time.sleep(0.5)
    assert "saved" not in text(browser)  # under a minute: nothing recorded
    browser.get(server.url + "/history")
    assert shows(browser, "No sessions yet.")


def test_without_javascript_the_sitting_page_lists_the_timeline(server, browser_without_javascript):
    browser = browser_without_javascript
    browser.get(server.url + "/profiles/1/sit")
    assert "There is no profile" in text(browser)
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Quiet")
    button(browser, "Create profile").click()
    assert shows_heading(browser, "Quiet")
    browser.get(server.url + "/profiles/1/sit")
    assert shows(browser, "07:30 — The session ends")
    assert not button(browser, "Start").is_displayed()  # nothing to press without the script


def test_the_editor_plays_the_chosen_sound(server, browser):
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Preview")
    button(browser, "Create profile").click()
    assert shows_heading(browser, "Preview")
    field(browser, "Warm Up on").click()
    assert value(browser, "Warm Up duration") == "05:00"
    # What the button hands to the browser's audio, recorded instead of played.
    browser.execute_script(
        "window.played = []; window.Audio = function (url) { window.played.push(url);"
        " return { play: () => Promise.resolve() }; };")
    Select(named(browser, "Begin sound in Warm Up")).select_by_visible_text("Gong")
    named(browser, "Play Begin sound in Warm Up").click()
    assert browser.execute_script("return window.played") == ["/sounds/gong.mp3"]


def test_sitting_without_a_timer_counts_up_rings_on_and_records_at_stop(server, browser):
    _three_second_profile(server, browser)
    button(browser, "Sit without a timer").click()
    assert shows(browser, "Time sat")
    assert not browser.find_element(By.CSS_SELECTOR, "[data-sitter-progress]").is_displayed()
    time.sleep(4.2)  # past the profile's three seconds: it goes on
    assert button(browser, "Stop").is_displayed()
    button(browser, "Stop").click()
    assert shows(browser, "Session saved.", timeout=5)
    sat = browser.find_element(By.CSS_SELECTOR, "[data-sitter-status]").text
    assert sat in ("Sat for 00:04. Session saved.", "Sat for 00:05. Session saved."), sat
    assert "Now: Time" in browser.find_element(By.CSS_SELECTOR, ".sitter-now").text
    browser.get(server.url + "/history")
    row = browser.find_element(By.CSS_SELECTOR, ".history-table tbody tr").text
    assert "Three seconds" in row and sat[8:13] in row and "Completed" in row


def test_without_a_timer_a_repeating_sound_rings_at_its_interval_for_ever(server, browser):
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Open")
    button(browser, "Create profile").click()
    assert shows_heading(browser, "Open")
    field(browser, "Warm Up on").click()
    assert value(browser, "Warm Up duration") == "05:00"
    fill(browser, "Warm Up duration", "00:07")
    field(browser, "Repeating sound").click()
    fill(browser, "Every", "00:02")
    fill(browser, "Strokes", "1")
    button(browser, "Save").click()
    assert shows(browser, "Profile saved.")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Sit with this profile").click())
    browser.execute_script("""
        window.starts = [];
        window.AudioContext = class {
            constructor() { this.currentTime = 0; this.destination = {}; }
            createBufferSource() { return { connect() {}, start: (time) => window.starts.push(time) }; }
            decodeAudioData() { return Promise.resolve({}); }
            suspend() { return Promise.resolve(); }
            resume() { return Promise.resolve(); }
            close() { return Promise.resolve(); }
        };
    """)
    button(browser, "Sit without a timer").click()
    # The audio clock stands still here: the next ten minutes are put on it, every 2 s.
    eventually(browser, lambda d: d.execute_script("return window.starts.length") >= 100)
    starts = sorted(round(start - 0.1, 3) for start in browser.execute_script("return window.starts"))
    assert all(second in starts for second in [2, 4, 6, 8, 100, 598])
    assert 7 not in starts and 3 not in starts
