"""People in a real browser: signing up, in and out, each person's own things, their page and
their settings."""
import re

from selenium.webdriver.common.by import By

from conftest import (PASSWORD, button, eventually, fill, heading, make_driver, press, screenshot, settled, shows,
                      shows_heading, sign_in, sign_out, sign_up, signed_in_as, text, value)


def section(driver, title):
    """The section of the page headed `title`."""
    return driver.find_element(By.XPATH, f"//section[h2[normalize-space()='{title}']]")


def follow(driver, link_text):
    settled(driver, lambda d: d.find_element(By.LINK_TEXT, link_text).click())


def test_sign_up_see_your_name_and_sign_out(server, browser):
    browser.get(server.url + "/")
    assert shows_heading(browser, "Sign in"), "home needs someone signed in"
    assert signed_in_as(browser) is None
    follow(browser, "Create account")
    assert shows_heading(browser, "Create account")
    fill(browser, "Name", "Ada Lovelace")
    fill(browser, "Username", "ada")
    fill(browser, "Password", PASSWORD)
    screenshot(browser, "sign-up")
    button(browser, "Create account").click()

    assert eventually(browser, lambda d: signed_in_as(d) == "Ada Lovelace")
    assert browser.current_url == server.url + "/"
    account = browser.find_element(By.CSS_SELECTOR, ".site-header .account")
    assert account.find_element(By.LINK_TEXT, "Ada Lovelace").get_attribute("href") == server.url + "/me"
    assert account.find_element(By.LINK_TEXT, "Settings").get_attribute("href") == server.url + "/settings"

    button(browser, "Sign out").click()
    assert shows_heading(browser, "Sign in")
    assert browser.current_url == server.url + "/sign-in"
    assert shows(browser, "You are signed out.")
    assert signed_in_as(browser) is None
    browser.get(server.url + "/profiles")
    assert shows_heading(browser, "Sign in"), "signing out ended the session"


def test_the_sign_up_page_says_what_is_wrong_and_keeps_the_values(server, browser):
    sign_up(browser, server)
    sign_out(browser)
    browser.get(server.url + "/sign-up")
    fill(browser, "Name", "Ada Byron")
    fill(browser, "Username", "ada")
    fill(browser, "Password", "short")
    press(browser, "Create account")
    assert shows(browser, "A password is at least 10 characters.")
    assert value(browser, "Name") == "Ada Byron"
    assert value(browser, "Username") == "ada"
    assert value(browser, "Password") == "", "a password is never sent back"
    fill(browser, "Password", "password123")
    press(browser, "Create account")
    assert shows(browser, "This password is among the most common ones. Choose another.")
    fill(browser, "Password", PASSWORD)
    press(browser, "Create account")
    assert shows(browser, "This username is taken. Choose another.")
    assert "A password is" not in text(browser)
    fill(browser, "Username", "ada_b")
    fill(browser, "Password", PASSWORD)
    press(browser, "Create account")
    assert eventually(browser, lambda d: signed_in_as(d) == "Ada Byron")


def test_a_page_opened_signed_out_opens_after_signing_in(server, browser):
    sign_up(browser, server)
    sign_out(browser)
    browser.get(server.url + "/history")
    assert shows_heading(browser, "Sign in")
    assert browser.current_url == server.url + "/sign-in?next=/history"
    assert browser.find_element(By.NAME, "next").get_attribute("value") == "/history"

    fill(browser, "Username", "ada")
    fill(browser, "Password", "not my password")
    screenshot(browser, "sign-in")
    press(browser, "Sign in")
    assert shows(browser, "Wrong username or password.")
    assert value(browser, "Username") == "ada"
    assert value(browser, "Password") == "", "a password is never sent back"
    assert browser.find_element(By.NAME, "next").get_attribute("value") == "/history", "next survives a mistake"

    fill(browser, "Password", PASSWORD)
    press(browser, "Sign in")
    assert shows_heading(browser, "History")
    assert browser.current_url == server.url + "/history"
    assert signed_in_as(browser) == "Ada Lovelace"


def test_signing_in_leads_only_to_this_sites_pages(server, browser):
    sign_up(browser, server, next="https://example.org/")
    assert browser.current_url == server.url + "/"
    sign_out(browser)
    browser.get(server.url + "/sign-in?next=//example.org/")
    fill(browser, "Username", "ada")
    fill(browser, "Password", PASSWORD)
    press(browser, "Sign in")
    assert browser.current_url == server.url + "/"
    assert signed_in_as(browser) == "Ada Lovelace"


def test_five_wrong_passwords_stop_signing_in_for_a_while(server, browser):
    sign_up(browser, server)
    sign_out(browser)
    for _ in range(5):
        fill(browser, "Username", "ada")
        fill(browser, "Password", "not my password")
        press(browser, "Sign in")
        assert shows(browser, "Wrong username or password.")
    fill(browser, "Username", "ada")
    fill(browser, "Password", PASSWORD)
    press(browser, "Sign in")
    assert re.search(r"Too many attempts\. Try again in \d+ minutes?\.", text(browser))
    assert signed_in_as(browser) is None, "not even the right password, for now"


def test_two_people_on_one_server_each_see_only_their_own(server, browser):
    sign_up(browser, server)
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Morning sit")
    button(browser, "Create profile").click()
    assert shows_heading(browser, "Morning sit")
    adas_profile = browser.current_url
    browser.get(server.url + "/friends/new")
    fill(browser, "First name", "Jane")
    fill(browser, "Last name", "Doe")
    fill(browser, "Phone number", "+1 555 0100")
    button(browser, "Add friend").click()
    assert shows(browser, "Added Jane Doe.")

    grace = make_driver()
    try:
        sign_up(grace, server, username="grace", name="Grace Hopper")
        assert signed_in_as(grace) == "Grace Hopper"
        assert "Morning sit" not in text(grace), "Ada's profile is not on Grace's home page"
        assert "Jane Doe" not in text(grace)
        grace.get(server.url + "/profiles")
        assert shows_heading(grace, "Profiles")
        assert "Morning sit" not in text(grace)
        grace.get(adas_profile)
        assert shows_heading(grace, "Page not found")
        assert "Morning sit" not in grace.page_source
        grace.get(server.url + "/friends")
        assert shows(grace, "No data available")
        grace.get(server.url + "/history")
        assert shows(grace, "No sessions yet.")

        grace.get(server.url + "/profiles")
        fill(grace, "Name", "Evening sit")
        button(grace, "Create profile").click()
        assert shows_heading(grace, "Evening sit")
        grace.get(server.url + "/profiles")
        assert shows(grace, "Evening sit")
        assert "Morning sit" not in text(grace)
    finally:
        grace.quit()

    browser.get(server.url + "/profiles")
    assert shows(browser, "Morning sit")
    assert "Evening sit" not in text(browser)
    browser.get(server.url + "/friends")
    assert shows(browser, "Jane Doe")
    assert signed_in_as(browser) == "Ada Lovelace"


ABOUT = "Morning sits by the river.\nEvenings with the Thursday group."


def test_my_page_and_settings_and_about_shows_on_my_page(server, browser):
    sign_up(browser, server)
    follow(browser, "Ada Lovelace")
    assert shows_heading(browser, "Ada Lovelace")
    assert browser.current_url == server.url + "/me"
    assert browser.find_element(By.CLASS_NAME, "avatar").text == "AL"
    since = browser.find_element(By.CLASS_NAME, "me-since").text
    assert re.fullmatch(r"Sitting since [A-Z][a-z]+ \d{4} · 0 sessions", since), since
    assert [h.text for h in browser.find_elements(By.TAG_NAME, "h2")] == ["Practice", "Friends", "About"]
    assert "Nothing here yet." in section(browser, "About").text

    section(browser, "About").find_element(By.LINK_TEXT, "Write something in Settings").click()
    assert shows_heading(browser, "Settings")
    assert browser.current_url == server.url + "/settings"
    assert value(browser, "Name") == "Ada Lovelace"
    assert value(browser, "About") == ""
    assert value(browser, "Current password") == ""
    assert value(browser, "New password") == ""
    assert [h.text for h in browser.find_elements(By.TAG_NAME, "h2")] == ["Calendar", "Delete account"]
    assert value(browser, "Password") == ""
    fill(browser, "About", ABOUT)
    press(browser, "Save")
    assert shows(browser, "Settings saved.")
    assert browser.current_url == server.url + "/settings"
    assert value(browser, "About") == ABOUT
    screenshot(browser, "settings")

    # Something to show on the page: a profile, a friend and a few sessions.
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Morning sit")
    button(browser, "Create profile").click()
    assert shows_heading(browser, "Morning sit")
    profile = browser.current_url.rsplit("/", 1)[-1]
    browser.get(server.url + "/friends/new")
    fill(browser, "First name", "Kenji")
    fill(browser, "Last name", "Satō")
    fill(browser, "Phone number", "0312345678")
    button(browser, "Add friend").click()
    assert shows(browser, "Added Kenji Satō.")
    statuses = browser.execute_async_script("""
        const [profile, done] = arguments;
        const token = document.querySelector("[name=_csrf]").value;
        // Each ending now, a day ago and 46 hours ago: /sessions records the last 30 days only.
        const hour = 60 * 60 * 1000;
        const sessions = [[0, 1500], [24, 1200], [46, 1800]];
        Promise.all(sessions.map(([hoursAgo, seconds]) => fetch("/sessions", {
            method: "POST",
            body: new URLSearchParams({_csrf: token, profile, seconds: String(seconds), completed: "true",
                startedAt: new Date(Date.now() - hoursAgo * hour - seconds * 1000).toISOString()}),
        }).then(response => response.status))).then(done);
    """, profile)
    assert statuses == [200] * 3

    follow(browser, "Ada Lovelace")
    assert shows_heading(browser, "Ada Lovelace")
    assert browser.find_element(By.CLASS_NAME, "me-since").text.endswith("· 3 sessions")
    assert ABOUT in section(browser, "About").text
    assert "Morning sit" in section(browser, "Practice").text
    assert "Kenji Satō" in section(browser, "Friends").text
    screenshot(browser, "me")


def test_a_new_password_replaces_the_old_one(server, browser):
    sign_up(browser, server)
    browser.get(server.url + "/settings")
    fill(browser, "Current password", "not my password")
    fill(browser, "New password", "a quieter horse battery")
    press(browser, "Save")
    assert shows(browser, "This is not your current password.")
    fill(browser, "Current password", PASSWORD)
    fill(browser, "New password", "a quieter horse battery")
    press(browser, "Save")
    assert shows(browser, "Settings saved. Signed out everywhere else.")
    sign_out(browser)

    fill(browser, "Username", "ada")
    fill(browser, "Password", PASSWORD)
    press(browser, "Sign in")
    assert shows(browser, "Wrong username or password.")
    sign_in(browser, server, password="a quieter horse battery")
    assert signed_in_as(browser) == "Ada Lovelace"


def test_deleting_the_account_asks_for_the_password_and_signs_out(server, browser):
    sign_up(browser, server)
    browser.get(server.url + "/settings")
    fill(browser, "Password", "not my password")
    press(browser, "Delete account")
    assert signed_in_as(browser) == "Ada Lovelace"
    assert shows(browser, "This is not your current password.")
    fill(browser, "Password", PASSWORD)
    press(browser, "Delete account")
    assert shows_heading(browser, "Create account")
    assert shows(browser, "Your account and everything in it were deleted.")
    assert signed_in_as(browser) is None
    browser.get(server.url + "/sign-in")
    fill(browser, "Username", "ada")
    fill(browser, "Password", PASSWORD)
    press(browser, "Sign in")
    assert shows(browser, "Wrong username or password.")


def test_the_people_pages_read_well_on_a_phone(server):
    phone = make_driver(width=360, height=800, phone=True)
    try:
        phone.get(server.url + "/sign-up")
        assert phone.execute_script("return document.documentElement.scrollWidth") <= 360
        sign_up(phone, server, name="Maria Goeppert Mayer")
        for path in ["/me", "/settings", "/", "/friends"]:
            phone.get(server.url + path)
            width = phone.execute_script("return document.documentElement.scrollWidth")
            assert width <= 360, f"{path} scrolls sideways on a phone ({width} px)"
        sign_out(phone)
        assert phone.execute_script("return document.documentElement.scrollWidth") <= 360
    finally:
        phone.quit()
