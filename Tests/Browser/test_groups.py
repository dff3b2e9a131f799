"""Groups in a real browser: one person creates a group and an invitation link, another joins
with it, and the group is nobody else's business."""
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
