"""A person manages friends in a real browser."""
import pytest
from selenium.webdriver.common.alert import Alert
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from conftest import (Server, button, field, fill, free_port, make_driver, named, press, screenshot, settled, shows,
                      shows_heading, sign_up, text, value)

pytestmark = pytest.mark.usefixtures("signed_in")


def test_add_see_edit_search_and_delete_a_friend(server, browser):
    browser.get(server.url + "/friends")
    assert shows_heading(browser, "Friends")
    assert shows(browser, "No data available")

    browser.find_element(By.LINK_TEXT, "Add friend").click()
    assert shows_heading(browser, "Add friend")
    add = button(browser, "Add friend")
    assert add.is_enabled(), "the button is never disabled: pressing it always says why"
    fill(browser, "First name", "Jane")
    fill(browser, "Last name", "Doe")
    fill(browser, "Phone number", "+1 555 0100")
    screenshot(browser, "friend-form")
    add.click()

    assert "Added Jane Doe." in browser.find_element(By.CSS_SELECTOR, "[role=status]").text
    assert shows(browser, "Jane Doe")
    assert shows(browser, "+15550100")

    named(browser, "Edit Jane Doe").click()
    assert value(browser, "First name") == "Jane"
    fill(browser, "First name", "Janet")
    button(browser, "Save").click()
    assert shows(browser, "Saved Janet Doe.")

    browser.find_element(By.LINK_TEXT, "Add friend").click()
    fill(browser, "First name", "Kenji")
    fill(browser, "Last name", "Satō")
    fill(browser, "Phone number", "0312345678")
    button(browser, "Add friend").click()
    assert shows(browser, "Added Kenji Satō.")
    screenshot(browser, "friends")

    fill(browser, "Search friends", "sato")
    # Kenji is on the page before the search too: wait for the search's own page.
    press(browser, "Search")
    assert shows(browser, "Kenji Satō")
    assert "Janet Doe" not in settled(browser, text)
    browser.find_element(By.LINK_TEXT, "Clear search").click()
    WebDriverWait(browser, 5).until(lambda d: "q=" not in d.current_url)

    named(browser, "Delete Janet Doe").click()
    confirm = WebDriverWait(browser, 3).until(expected_conditions.alert_is_present())
    assert confirm.text == "Remove Janet Doe from your friends?"
    confirm.dismiss()
    assert shows(browser, "Janet Doe"), "dismissing the question keeps the friend"
    named(browser, "Delete Janet Doe").click()
    Alert(browser).accept()
    assert shows(browser, "Removed Janet Doe.")
    assert "Janet Doe" not in browser.find_element(By.CSS_SELECTOR, ".item-list").text


def test_the_form_checks_fields_as_they_are_typed_with_the_servers_messages(server, browser):
    browser.get(server.url + "/friends/new")
    fill(browser, "First name", "J4ne")
    fill(browser, "Last name", "Doe")
    message = browser.find_element(By.ID, "field-firstname-error")
    assert message.text == "First name may contain only letters, spaces, hyphens and apostrophes."
    assert field(browser, "First name").get_attribute("aria-describedby") == "field-firstname-error"
    fill(browser, "Phone number", "12")
    field(browser, "First name").click()
    assert browser.find_element(By.ID, "field-phonenumber-error").text == (
        "Phone number must be 3 to 20 digits, optionally starting with +.")
    assert button(browser, "Add friend").is_enabled()
    fill(browser, "First name", "Jane")
    fill(browser, "Phone number", "123")
    field(browser, "Last name").click()
    assert not browser.find_elements(By.CLASS_NAME, "field-error")


def test_the_form_counts_characters_as_the_server_does(server, browser):
    """26 "é" written with a combining accent are 26 characters (52 code points): the page takes
    them, as the server does; 51 are too many, in the server's words."""
    browser.get(server.url + "/friends/new")
    name = "e\u0301" * 26
    fill(browser, "First name", name)
    fill(browser, "Last name", "Doe")
    assert value(browser, "First name") == name  # no maxlength cut it short
    fill(browser, "Phone number", "+44 (0) 7700 900 123")
    field(browser, "First name").click()
    browser.implicitly_wait(0)
    try:
        assert browser.find_elements(By.CLASS_NAME, "field-error") == []
    finally:
        browser.implicitly_wait(3)
    press(browser, "Add friend")
    assert shows(browser, "Doe.")
    assert shows(browser, "Added ")
    browser.get(server.url + "/friends/new")
    fill(browser, "First name", "e\u0301" * 51)
    field(browser, "Last name").click()
    assert browser.find_element(By.ID, "field-firstname-error").text == "First name must be at most 50 characters."


def test_sending_an_empty_form_says_why_next_to_each_field_and_focuses_the_first(server, browser):
    browser.get(server.url + "/friends/new")
    button(browser, "Add friend").click()
    assert browser.find_element(By.ID, "field-firstname-error").text == "First name is required."
    assert browser.find_element(By.ID, "field-lastname-error").text == "Last name is required."
    assert browser.find_element(By.ID, "field-phonenumber-error").text == "Phone number is required."
    assert browser.switch_to.active_element.get_attribute("id") == "field-firstname"
    assert browser.current_url.endswith("/friends/new"), "nothing was sent"
    fill(browser, "First name", "Jane")
    fill(browser, "Last name", "Doe")
    fill(browser, "Phone number", "123")
    button(browser, "Add friend").click()
    assert shows(browser, "Added Jane Doe.")


def test_without_javascript_the_server_checks_and_keeps_the_values(server, browser_without_javascript):
    browser = browser_without_javascript
    browser.get(server.url + "/friends/new")
    fill(browser, "First name", "Jane")
    fill(browser, "Last name", "D0e")
    fill(browser, "Phone number", "123")
    button(browser, "Add friend").click()
    assert shows(browser, "Last name may contain only letters, spaces, hyphens and apostrophes.")
    assert value(browser, "First name") == "Jane"
    assert value(browser, "Last name") == "D0e"
    screenshot(browser, "friend-form-errors")

    fill(browser, "Last name", "Doe")
    button(browser, "Add friend").click()
    assert shows(browser, "Added Jane Doe.")
    named(browser, "Delete Jane Doe").click()  # no question without script: the post goes
    assert shows(browser, "Removed Jane Doe.")


def test_a_stopped_friend_service_shows_its_message():
    stopped = Server("--friend-service-url", f"http://127.0.0.1:{free_port()}")
    driver = make_driver()
    try:
        sign_up(driver, stopped)
        driver.get(stopped.url + "/friends")
        assert shows(driver, "Loading failed, check network connection")
        screenshot(driver, "friends-service-down")
        driver.get(stopped.url + "/")
        assert shows(driver, "Loading failed, check network connection")
    finally:
        driver.quit()
        stopped.stop()


def test_a_form_being_sent_is_busy_and_cannot_be_sent_twice():
    import socket
    # A FriendService that accepts connections and never answers: the add waits for its timeout.
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    slow = Server("--friend-service-url", f"http://127.0.0.1:{silent.getsockname()[1]}",
                  "--friend-service-timeout", "3")
    driver = make_driver()
    try:
        sign_up(driver, slow, next="/friends/new")  # not home, whose friends would wait for the silence
        driver.get(slow.url + "/friends/new")
        fill(driver, "First name", "Jane")
        fill(driver, "Last name", "Doe")
        fill(driver, "Phone number", "123")
        add = button(driver, "Add friend")
        # Press twice in a row, then look at the button while the page waits for the server.
        busy, disabled, sent = driver.execute_async_script("""
            const [button, done] = arguments;
            let sent = 0;
            button.form.addEventListener("submit", (event) => { if (!event.defaultPrevented) sent += 1; });
            button.click();
            setTimeout(() => {
                button.click();
                done([button.getAttribute("aria-busy"), button.disabled, sent]);
            }, 50);
        """, add)
        assert busy == "true"
        assert disabled is True
        assert sent == 1
        WebDriverWait(driver, 10).until(lambda d: "Could not add Jane Doe." in text(d))
        assert value(driver, "Last name") == "Doe"
    finally:
        driver.quit()
        slow.stop()
        silent.close()
