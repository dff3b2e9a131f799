"""Groups in a real browser: one person creates a group and an invitation link, another joins
with it, and the group is nobody else's business."""
import time

from selenium.webdriver.common.by import By

from conftest import (PASSWORD, button, eventually, field, fill, make_driver, named, press, screenshot, settled,
                      shows, shows_heading, sign_up, signed_in_as, value)


def create_invitation(driver):
    """Presses "Create invitation link" and reads the new link once the page it leads to is
    there: the page before may show an earlier link, which a read right after the click finds
    (and then loses as the page is replaced, or returns although it was used)."""
    press(driver, "Create invitation link")
    return settled(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".one-time-link-url").get_attribute("value"))


def test_create_invite_and_join(server, browser):
    sign_up(browser, server)
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Groups").click())
    assert shows_heading(browser, "Groups")
    assert shows(browser, "You are in no group yet.")
    fill(browser, "Name", "Morning sangha")
    settled(browser, lambda d: button(d, "Create group").click())
    assert shows_heading(browser, "Morning sangha")
    assert shows(browser, "Group created.")
    group_url = browser.current_url
    link = create_invitation(browser)
    assert "/groups/invite/" in link

    guest = make_driver()
    try:
        # A stranger is taken through sign-up and back to the invitation.
        guest.get(link)
        assert shows_heading(guest, "Sign in")
        settled(guest, lambda d: d.find_element(By.LINK_TEXT, "Create account").click())
        fill(guest, "Name", "Bob Brown")
        fill(guest, "Username", "bob")
        fill(guest, "Password", PASSWORD)
        button(guest, "Create account").click()
        assert eventually(guest, lambda d: signed_in_as(d) == "Bob Brown", timeout=10)
        assert shows_heading(guest, "Morning sangha")
        settled(guest, lambda d: button(d, "Join group").click())
        assert shows(guest, "Welcome to the group.")
        assert guest.current_url == group_url
        assert "Ada Lovelace" in guest.find_element(By.ID, "main").text
        assert not guest.find_elements(By.XPATH, "//button[normalize-space()='Create invitation link']")

        browser.get(group_url)
        main = browser.find_element(By.ID, "main").text
        assert "Bob Brown" in main and "Remove" in main
        screenshot(browser, "group")
        browser.get(server.url + "/groups")
        assert shows(browser, "2 members · you host")
        screenshot(browser, "groups")

        # Bob leaves: the group is Ada's alone again, and his to see no more.
        guest.get(group_url)
        settled(guest, lambda d: button(d, "Leave group").click())
        assert shows(guest, "You left Morning sangha.")
        guest.get(group_url)
        assert shows_heading(guest, "Page not found")
    finally:
        guest.quit()


def _group_with_two(server, host, guest):
    """Ada hosts "Morning sangha", which Bob joined with its link; the group's address."""
    sign_up(host, server)
    host.get(server.url + "/groups")
    fill(host, "Name", "Morning sangha")
    settled(host, lambda d: button(d, "Create group").click())
    assert shows_heading(host, "Morning sangha")
    group_url = host.current_url
    link = create_invitation(host)
    sign_up(guest, server, username="bob", name="Bob Brown", next=link.removeprefix(server.url))
    settled(guest, lambda d: button(d, "Join group").click())
    assert shows(guest, "Welcome to the group.")
    return group_url


def sitting_now(driver):
    """The "Sitting now" section's text, read in one step: the stream may swap it any moment."""
    return driver.execute_script("return document.getElementById('sitting-now')?.innerText ?? ''")


def test_sitting_now_is_live(server, browser):
    """Bob starts sitting; within 2 s Ada's group page, not reloaded, shows him under "Sitting
    now"; he stops, and he is gone from it."""
    guest = make_driver()
    try:
        group_url = _group_with_two(server, browser, guest)
        guest.get(server.url + "/profiles")
        fill(guest, "Name", "Evening")
        button(guest, "Create profile").click()
        assert shows_heading(guest, "Evening")
        settled(guest, lambda d: d.find_element(By.LINK_TEXT, "Sit with this profile").click())

        browser.get(group_url)
        assert "No one is sitting now." in sitting_now(browser)
        browser.execute_script("window.notReloaded = true")
        # The stream is open before Bob sits (its first bytes came back).
        assert eventually(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-live-open]"))

        button(guest, "Start").click()
        started = time.monotonic()
        assert eventually(browser, lambda d: "Bob Brown" in sitting_now(d), timeout=2)
        assert time.monotonic() - started <= 2
        assert "Evening" in sitting_now(browser)
        assert browser.execute_script("return window.notReloaded === true")
        screenshot(browser, "group-sitting-now")

        button(guest, "Stop").click()
        started = time.monotonic()
        assert eventually(browser, lambda d: "No one is sitting now." in sitting_now(d), timeout=2)
        assert time.monotonic() - started <= 2
        assert browser.execute_script("return window.notReloaded === true")

        # Hidden by choice: Bob turns "Show me when I sit" off and sits again; Ada sees no one.
        guest.get(server.url + "/settings")
        guest.find_element(By.ID, "showWhenSitting").click()
        settled(guest, lambda d: button(d, "Save").click())
        assert shows(guest, "Settings saved.")
        guest.get(server.url + "/profiles/1/sit")
        button(guest, "Start").click()
        assert eventually(guest, lambda d: button(d, "Pause").is_displayed())
        browser.get(group_url)
        assert "No one is sitting now." in sitting_now(browser)
    finally:
        guest.quit()


# A page whose own clock is off by this many milliseconds (performance.timeOrigin moved; the
# real one kept for the test), and that keeps each "sangha:ring" its script tells of.
SKEWED_CLOCK = """
    const realOrigin = performance.timeOrigin;
    Object.defineProperty(window, "realTimeOrigin", { value: realOrigin });
    Object.defineProperty(performance, "timeOrigin", { get: () => realOrigin + %d });
    window.rings = [];
    document.addEventListener("sangha:ring", (event) => window.rings.push(event.detail), true);
"""


def _skewed(driver, milliseconds):
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SKEWED_CLOCK % milliseconds})


def _rings(driver):
    """What the page put on its audio clock: {second of the sit: the instant it will be heard by
    the machine's real clock, in ms since 1970}. The page tells each ring's instant on its
    performance clock, from its audio clock's own timestamp; the real time origin turns that into
    the machine's time, which the page cannot see: a page that trusted its skewed clock would be
    off by the skew."""
    rings = driver.execute_script("return window.rings")
    return {ring["time"]: driver.execute_script("return window.realTimeOrigin") + ring["performanceTime"]
            for ring in rings}


def _join_sit(driver, group_url, name):
    driver.get(group_url)
    settled(driver, lambda d: named(d, f"Join {name}").click())
    assert shows_heading(driver, name)
    assert eventually(driver, lambda d: button(d, "Join").is_displayed(), timeout=10)


def sit_people(driver):
    return driver.execute_script("return document.getElementById('sit-people')?.innerText ?? ''")


def test_a_group_sit_rings_together(server, browser):
    """Ada hosts a sit of 35 s (a warm-up of 34 s with a bell every 10 s, then 1 s). Ada (her clock 4 s slow) and
    Bob (his 7 s fast) join before it begins: each bell is on both audio clocks at the same
    instant, within 50 ms, and at the sit's start by the server's clock. Carol (2.5 s fast) joins
    21 s after it began: her first bell is the one at 30 s, on time. Who is in the sit shows live,
    and each session is in its sitter's history "with" the group."""
    guest, late = make_driver(), make_driver()
    try:
        for driver, skew in ((browser, -4000), (guest, 7000), (late, 2500)):
            _skewed(driver, skew)
        group_url = _group_with_two(server, browser, guest)
        link = create_invitation(browser)
        sign_up(late, server, username="carol", name="Carol Chen", next=link.removeprefix(server.url))
        settled(late, lambda d: button(d, "Join group").click())
        assert shows(late, "Welcome to the group.")

        browser.get(server.url + "/profiles")
        fill(browser, "Name", "Bells")
        button(browser, "Create profile").click()
        assert shows_heading(browser, "Bells")
        field(browser, "Warm Up on").click()  # the script saves at once, and the section opens
        assert value(browser, "Warm Up duration") == "05:00"
        fill(browser, "Warm Up duration", "00:34")
        fill(browser, "Duration", "00:01")
        field(browser, "Repeating sound").click()
        fill(browser, "Every", "00:10")
        fill(browser, "Strokes", "1")
        button(browser, "Save").click()
        assert shows(browser, "Profile saved.")

        # The sit begins in 20 s: to the second, which the form's picker does not offer (typed).
        starts = int(time.time()) + 20
        browser.get(group_url)
        browser.execute_script(
            "arguments[0].form.noValidate = true; arguments[0].value = arguments[1];",
            field(browser, "Date and time"), time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(starts)))
        settled(browser, lambda d: button(d, "Schedule a sit").click())
        assert shows(browser, "The sit is scheduled.")
        assert "Bells" in browser.execute_script("return document.getElementById('upcoming-sits').innerText")
        screenshot(browser, "group-upcoming-sits")

        for driver in (browser, guest):
            _join_sit(driver, group_url, "Bells")
            button(driver, "Join").click()
            assert eventually(driver, lambda d: len(d.execute_script("return window.rings")) >= 3)
        assert eventually(browser, lambda d: "Bob Brown" in sit_people(d), timeout=3)
        assert "Ada Lovelace" in sit_people(browser)

        ada, bob = _rings(browser), _rings(guest)
        print("Ada − Bob, Ada − the server's instant (ms):",
              {second: (round(ada[second] - bob[second], 1), round(ada[second] - (starts + second) * 1000, 1))
               for second in sorted(ada)})
        assert sorted(ada) == sorted(bob) and {10, 20, 30} <= set(ada), sorted(ada)
        for second in ada:
            assert abs(ada[second] - bob[second]) <= 50, (second, ada[second] - bob[second])
            assert abs(ada[second] - (starts + second) * 1000) <= 50, (second, ada[second] - starts * 1000)

        # Carol joins 21 s after it began: the next bell due is the one at 30 s, on time.
        _join_sit(late, group_url, "Bells")
        time.sleep(max(0, starts + 21 - time.time()))
        button(late, "Join").click()
        assert eventually(late, lambda d: len(d.execute_script("return window.rings")) >= 1)
        carol = _rings(late)
        assert min(carol) == 30, sorted(carol)
        print("Carol − Ada at 30 s (ms):", round(carol[30] - ada[30], 1))
        assert abs(carol[30] - ada[30]) <= 50, carol[30] - ada[30]
        assert eventually(browser, lambda d: "Carol Chen" in sit_people(d), timeout=3)
        screenshot(browser, "group-sit")

        # The end: each session is recorded, "with Morning sangha"; Carol's from when she joined.
        assert shows(guest, "Session complete. Session saved.", timeout=30)
        assert shows(late, "Session complete.", timeout=5)
        guest.get(server.url + "/history")
        row = guest.find_element(By.CSS_SELECTOR, ".history-table tbody tr").text
        assert "Bells with Morning sangha" in row and "00:35" in row and "Completed" in row
    finally:
        guest.quit()
        late.quit()
