"""Groups in a real browser: one person creates a group and an invitation link, another joins
with it, and the group is nobody else's business."""
import time

from selenium.webdriver.common.by import By

from conftest import (PASSWORD, button, eventually, fill, make_driver, screenshot, settled, shows, shows_heading,
                      sign_up, signed_in_as)


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
    settled(browser, lambda d: button(d, "Create invitation link").click())
    link = browser.find_element(By.CSS_SELECTOR, ".one-time-link-url").get_attribute("value")
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
    settled(host, lambda d: button(d, "Create invitation link").click())
    link = host.find_element(By.CSS_SELECTOR, ".one-time-link-url").get_attribute("value")
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
