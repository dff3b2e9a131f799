"""The practice log in a real browser: a sit added by hand, corrected, and deleted."""
import time

from selenium.webdriver.common.by import By

from conftest import button, fill, screenshot, settled, shows, shows_heading, sign_up


def test_add_correct_and_delete_a_sit(server, browser):
    sign_up(browser, server)
    browser.get(server.url + "/history")
    today = time.strftime("%Y-%m-%d")
    fill(browser, "Date", today)
    fill(browser, "Start time", "00:00")
    fill(browser, "Duration", "99:99")
    fill(browser, "What", "Zazen on the cushion")
    settled(browser, lambda d: button(d, "Add sit").click())
    # The duration is said by its field; what was typed is kept.
    assert shows(browser, "Enter the duration as mm:ss, h:mm:ss or whole minutes.")
    assert browser.find_element(By.ID, "field-what").get_attribute("value") == "Zazen on the cushion"
    fill(browser, "Duration", "25")
    fill(browser, "Note", "Birds before dawn.")
    settled(browser, lambda d: button(d, "Add sit").click())
    assert shows(browser, "Sit added.")
    row = browser.find_element(By.CSS_SELECTOR, ".history-table tbody tr").text
    assert "Zazen on the cushion" in row and "Birds before dawn." in row and "25:00" in row
    screenshot(browser, "history-add-a-sit")

    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Edit").click())
    assert shows_heading(browser, "Edit sit")
    fill(browser, "Duration", "30:00")
    settled(browser, lambda d: button(d, "Save").click())
    assert shows(browser, "Sit saved.")
    assert "30:00" in browser.find_element(By.CSS_SELECTOR, ".history-table tbody tr").text

    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Edit").click())
    # "Delete" asks first: a refusal changes nothing, a yes deletes.
    browser.execute_script("window.confirm = () => false")
    button(browser, "Delete").click()
    assert shows_heading(browser, "Edit sit")
    browser.execute_script("window.confirm = () => true")
    settled(browser, lambda d: button(d, "Delete").click())
    assert shows(browser, "Sit deleted.")
    assert shows(browser, "No sessions yet.")


def test_import_a_file(server, browser, tmp_path):
    sign_up(browser, server)
    browser.get(server.url + "/history")
    settled(browser, lambda d: d.find_element(By.LINK_TEXT, "Import sessions").click())
    assert shows_heading(browser, "Import sessions")
    log = tmp_path / "log.csv"
    log.write_text("started_at,seconds,profile,outcome,group,note\r\n"
                   "2026-01-02T06:30:00+01:00,1200,Zazen,completed,,\"First, of the year\"\r\n"
                   "2026-01-03T06:30:00+01:00,900,Zazen,stopped,,\r\n", encoding="utf-8")
    browser.find_element(By.ID, "field-file").send_keys(str(log))
    settled(browser, lambda d: button(d, "Preview").click())
    assert shows(browser, "2 sessions to add, 0 already there, 0 lines with problems")
    screenshot(browser, "history-import")
    settled(browser, lambda d: button(d, "Import").click())
    assert shows(browser, "Imported 2 sessions.")
    rows = [row.text for row in browser.find_elements(By.CSS_SELECTOR, ".history-table tbody tr")]
    assert len(rows) == 2 and "First, of the year" in rows[1] and "Stopped" in rows[0]
