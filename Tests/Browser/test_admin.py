"""Running Sangha for a group, in a real browser: the first account administers, invites the
next person, resets a password, and disables an account."""
import pytest
from selenium.webdriver.common.by import By

from conftest import (PASSWORD, Server, button, fill, make_driver, screenshot, settled, shows, shows_heading, sign_in,
                      sign_up, signed_in_as, eventually)

NEW_PASSWORD = "another long passphrase"


@pytest.fixture
def invite_only():
    """A deployment as a group runs it: sign-up by invitation (the default), guessing limited."""
    running = Server("--sign-up", "invite", "--address-limit", "30")
    yield running
    running.stop()


def one_time_link(driver):
    return settled(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".one-time-link-url").get_attribute("value"))


def person_row(driver, username):
    return driver.find_element(By.XPATH, f"//li[contains(@class,'item')][.//*[contains(text(),'@{username}')]]")


def test_the_first_account_invites_resets_and_disables(invite_only, browser):
    server = invite_only
    sign_up(browser, server)  # the first account of the deployment: its administrator
    guest = make_driver()
    try:
        guest.get(server.url + "/sign-up")
        assert shows(guest, "Sign-up needs an invitation.")
        assert not guest.find_elements(By.XPATH, "//button[normalize-space()='Create account']")

        settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Admin").click())
        assert shows_heading(browser, "Admin")
        settled(browser, lambda d: button(d, "Invite someone").click())
        invitation = one_time_link(browser)
        assert "/sign-up?invitation=" in invitation

        guest.get(invitation)
        fill(guest, "Name", "Grace Hopper")
        fill(guest, "Username", "grace")
        fill(guest, "Password", PASSWORD)
        button(guest, "Create account").click()
        assert eventually(guest, lambda d: signed_in_as(d) == "Grace Hopper", timeout=10)

        browser.get(server.url + "/admin")
        assert eventually(browser, lambda d: "Administrator" in person_row(d, "ada").text)
        settled(browser, lambda d: person_row(d, "grace").find_element(
            By.XPATH, ".//button[normalize-space()='Reset password']").click())
        reset = one_time_link(browser)
        assert "/reset-password?token=" in reset
        assert shows(browser, "Password reset link for Grace Hopper")
        screenshot(browser, "admin")

        # The reset link sets a new password once and ends Grace's sessions.
        other = make_driver()
        try:
            other.get(invitation)
            assert shows(other, "Sign-up needs an invitation."), "an invitation admits one person, once"
            other.get(reset)
            assert shows_heading(other, "Choose a new password")
            fill(other, "New password", NEW_PASSWORD)
            settled(other, lambda d: button(d, "Set password").click())
            assert shows(other, "Password set. Sign in with your new password.")
            sign_in(other, server, username="grace", password=NEW_PASSWORD, name="Grace Hopper")
        finally:
            other.quit()
        guest.get(server.url + "/profiles")
        assert shows_heading(guest, "Sign in"), "the reset signed Grace out everywhere"
        sign_in(guest, server, username="grace", password=NEW_PASSWORD, name="Grace Hopper")

        settled(browser, lambda d: person_row(d, "grace").find_element(
            By.XPATH, ".//button[normalize-space()='Disable']").click())
        assert eventually(browser, lambda d: "Disabled" in person_row(d, "grace").text)
        guest.get(server.url + "/profiles")
        assert shows_heading(guest, "Sign in"), "disabling signed Grace out"
        fill(guest, "Username", "grace")
        fill(guest, "Password", NEW_PASSWORD)
        settled(guest, lambda d: button(d, "Sign in").click())
        assert shows(guest, "This account is disabled.")

        settled(browser, lambda d: person_row(d, "grace").find_element(
            By.XPATH, ".//button[normalize-space()='Enable']").click())
        sign_in(guest, server, username="grace", password=NEW_PASSWORD, name="Grace Hopper")
        assert not guest.find_elements(By.LINK_TEXT, "Admin")
        guest.get(server.url + "/admin")
        assert shows_heading(guest, "Page not found"), "/admin is no one else's"
    finally:
        guest.quit()
