"""Signing in with the group's identity provider, in Chromium, against a real OpenID provider on
loopback (oidc-provider-mock, an authlib-based provider): its authorization form, its RS256 ID
tokens and JWKS, its refusals."""
import json
import subprocess
import sys
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import (PASSWORD, Server, button, eventually, field, fill, free_port, screenshot, settled, shows,
                      shows_heading, sign_up, signed_in_as)

NAME = "Group ID"


class Provider:
    """oidc-provider-mock on a free loopback port, with Grace among its people; stopped by its
    process id."""

    def __init__(self):
        self.port = free_port()
        self.issuer = f"http://127.0.0.1:{self.port}"
        claims = {"sub": "grace-248289761001", "name": "Grace Hopper", "preferred_username": "grace"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "oidc_provider_mock", "--port", str(self.port), "--require-nonce", "true",
             "--user-claims", json.dumps(claims)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.issuer + "/.well-known/openid-configuration", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("oidc-provider-mock did not start")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def provider():
    running = Provider()
    yield running
    running.stop()


@pytest.fixture
def sangha(provider):
    running = Server("--oidc-issuer", provider.issuer, "--oidc-client-id", "sangha",
                     "--oidc-client-secret", "any secret", "--oidc-name", NAME)
    yield running
    running.stop()


def test_sign_in_with_the_groups_provider(sangha, browser):
    browser.get(sangha.url + "/history")
    assert shows_heading(browser, "Sign in")
    screenshot(browser, "sign-in-with-provider")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, f"Sign in with {NAME}").click())
    # The provider's own page: Grace is one of its people.
    eventually(browser, lambda d: "Authorize Client" in d.page_source, timeout=10)
    settled(browser, lambda d: button(d, "grace-248289761001").click())
    # Back in Sangha, signed in as a new account named by the provider, where she was going.
    eventually(browser, lambda d: signed_in_as(d) == "Grace Hopper", timeout=10)
    assert browser.current_url == sangha.url + "/history"
    # Signed out and in again: the same account, found by (issuer, subject).
    settled(browser, lambda d: button(d, "Sign out").click())
    assert shows_heading(browser, "Sign in")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, f"Sign in with {NAME}").click())
    eventually(browser, lambda d: "Authorize Client" in d.page_source, timeout=10)
    settled(browser, lambda d: button(d, "grace-248289761001").click())
    eventually(browser, lambda d: signed_in_as(d) == "Grace Hopper", timeout=10)
    # One account (the deployment's first, so its administrator), named by the provider.
    browser.get(sangha.url + "/admin")
    assert shows(browser, "Grace Hopper")
    people = browser.find_elements(By.CSS_SELECTOR, "main .item-list .item-name")
    assert [person.text.split(" Admin")[0] for person in people] == ["Grace Hopper @grace"], [p.text for p in people]
    screenshot(browser, "admin-after-provider-sign-in")


def test_a_refusal_at_the_provider_signs_no_one_in(sangha, browser):
    browser.get(sangha.url + "/sign-in")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, f"Sign in with {NAME}").click())
    eventually(browser, lambda d: "Authorize Client" in d.page_source, timeout=10)
    settled(browser, lambda d: button(d, "Deny").click())
    assert shows(browser, f"Signing in with {NAME} did not work. Try again.", timeout=10)
    assert signed_in_as(browser) is None
    screenshot(browser, "sign-in-with-provider-refused")


def test_connect_a_password_account_in_settings(sangha, browser):
    sign_up(browser, sangha)
    # A link another site could make the browser follow starts nothing: 405, no provider.
    browser.get(sangha.url + "/settings/oidc/connect")
    assert "Authorize Client" not in browser.page_source
    assert shows(browser, "This address does not accept GET requests.")
    browser.get(sangha.url + "/settings")
    assert shows(browser, f"Connect your account to sign in with {NAME} too.")
    # "Connect NAME" asks for the password first: a wrong one is refused by the field.
    fill(browser, "Your password", "not my password")
    settled(browser, lambda d: button(d, f"Connect {NAME}").click())
    assert shows(browser, "This is not your password.", timeout=10)
    error = browser.find_element(By.ID, "field-connectPassword-error")
    assert error.is_displayed()
    assert browser.find_element(By.ID, "field-connectPassword").get_attribute("aria-invalid") == "true"
    screenshot(browser, "settings-provider-connect-refused")
    fill(browser, "Your password", PASSWORD)
    settled(browser, lambda d: button(d, f"Connect {NAME}").click())
    assert shows(browser, "Password confirmed.", timeout=10)
    screenshot(browser, "settings-provider-connect-continue")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, f"Continue to {NAME}").click())
    eventually(browser, lambda d: "Authorize Client" in d.page_source, timeout=10)
    settled(browser, lambda d: button(d, "grace-248289761001").click())
    assert shows(browser, f"Connected to {NAME}.", timeout=10)
    assert shows(browser, f"You can sign in with {NAME} or with your password.")
    screenshot(browser, "settings-provider-connected")
    # The provider now signs Ada in: no new account is made for its subject.
    settled(browser, lambda d: button(d, "Sign out").click())
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, f"Sign in with {NAME}").click())
    eventually(browser, lambda d: "Authorize Client" in d.page_source, timeout=10)
    settled(browser, lambda d: button(d, "grace-248289761001").click())
    eventually(browser, lambda d: signed_in_as(d) == "Ada Lovelace", timeout=10)
    browser.get(sangha.url + "/settings")
    settled(browser, lambda d: button(d, f"Disconnect {NAME}").click())
    assert shows(browser, f"Disconnected from {NAME}.", timeout=10)


def test_a_new_password_ends_the_other_ways_in_that_are_checked(sangha, browser):
    sign_up(browser, sangha)
    browser.get(sangha.url + "/settings")
    # Nothing else reaches the account yet: nothing is listed.
    assert not browser.find_elements(By.ID, "field-endCalendarLink")
    settled(browser, lambda d: button(d, "Create calendar link").click())
    assert shows(browser, "You have a calendar link.", timeout=10)
    fill(browser, "Your password", PASSWORD)
    settled(browser, lambda d: button(d, f"Connect {NAME}").click())
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, f"Continue to {NAME}").click())
    eventually(browser, lambda d: "Authorize Client" in d.page_source, timeout=10)
    settled(browser, lambda d: button(d, "grace-248289761001").click())
    assert shows(browser, f"Connected to {NAME}.", timeout=10)
    # Beside the password: the provider's identity and the calendar link, each with its box.
    assert shows(browser, "Other ways in")
    fill(browser, "Current password", PASSWORD)
    fill(browser, "New password", "quiet-river-stones-42")
    for label in [f"Disconnect {NAME}", "End calendar link"]:
        box = field(browser, label)
        assert box.get_attribute("type") == "checkbox" and not box.is_selected()
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        settled(browser, lambda d: field(d, label).click())
    screenshot(browser, "settings-other-ways-in")
    settled(browser, lambda d: button(d, "Save").click())
    assert shows(browser, f"Settings saved. Signed out everywhere else. Disconnected from {NAME}. Calendar link ended.",
                 timeout=10)
    assert shows(browser, f"Connect your account to sign in with {NAME} too.")
    assert shows(browser, "You have no calendar link yet.")
    assert not browser.find_elements(By.ID, "field-endProvider")


def test_an_account_without_a_password_confirms_then_sets_one(sangha, browser):
    browser.get(sangha.url + "/sign-in")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, f"Sign in with {NAME}").click())
    eventually(browser, lambda d: "Authorize Client" in d.page_source, timeout=10)
    settled(browser, lambda d: button(d, "grace-248289761001").click())
    eventually(browser, lambda d: signed_in_as(d) == "Grace Hopper", timeout=10)
    browser.get(sangha.url + "/settings")
    assert shows(browser, f"You sign in with {NAME}: your account has no password.")
    assert not browser.find_elements(By.ID, "field-newPassword")
    screenshot(browser, "settings-provider-only")
    # "Confirm with NAME": to the provider again (prompt=login) and back, confirmed.
    settled(browser, lambda d: d.find_elements(By.LINK_TEXT, f"Confirm with {NAME}")[0].click())
    eventually(browser, lambda d: "Authorize Client" in d.page_source, timeout=10)
    settled(browser, lambda d: button(d, "grace-248289761001").click())
    assert shows(browser, f"Confirmed with {NAME}.", timeout=10)
    fill(browser, "New password", "quiet-river-stones-42")
    settled(browser, lambda d: button(d, "Save").click())
    assert shows(browser, "Settings saved. Signed out everywhere else.", timeout=10)
    assert shows(browser, f"You can sign in with {NAME} or with your password.")
    screenshot(browser, "settings-provider-only-password-set")
    # The password signs her in now.
    settled(browser, lambda d: button(d, "Sign out").click())
    fill(browser, "Username", "grace")
    fill(browser, "Password", "quiet-river-stones-42")
    settled(browser, lambda d: button(d, "Sign in").click())
    eventually(browser, lambda d: signed_in_as(d) == "Grace Hopper", timeout=10)
