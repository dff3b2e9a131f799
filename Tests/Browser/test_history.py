"""The practice log in a real browser: a sit added by hand, corrected, and deleted."""
import datetime
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

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


def test_days_in_the_persons_time_zone_and_the_years_calendar(server, browser, tmp_path):
    # Sign-up sends the browser's time zone: the account lives in Tokyo. (Without script, or
    # with a zone not on the list, it lives in the server's, which Settings shows selected.)
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    sign_up(browser, server)
    browser.get(server.url + "/settings")
    zone = browser.find_element(By.ID, "field-timeZone")
    assert zone.get_attribute("value") == "Asia/Tokyo"
    assert "Use this device’s time zone" not in browser.find_element(By.TAG_NAME, "main").text

    # On a device in Santiago, Settings offers its zone; taken, with days from 03:00.
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/Santiago"})
    browser.get(server.url + "/settings")
    button(browser, "Use this device’s time zone, America/Santiago").click()
    assert browser.find_element(By.ID, "field-timeZone").get_attribute("value") == "America/Santiago"
    Select(browser.find_element(By.ID, "field-dayStartHour")).select_by_visible_text("03:00")
    settled(browser, lambda d: button(d, "Save").click())
    assert shows(browser, "Settings saved.")
    browser.get(server.url + "/settings")
    assert browser.find_element(By.ID, "field-timeZone").get_attribute("value") == "America/Santiago"
    assert browser.find_element(By.ID, "field-dayStartHour").get_attribute("value") == "3"

    # Most days of the last 300 at 12:00 UTC (09:00 in Santiago), every one of the last 44.
    today = datetime.datetime.now(datetime.timezone.utc).date()
    lines = ["started_at,seconds,profile,outcome,group,note"]
    for back in range(1, 301):
        if back > 44 and back % 5 == 0:
            continue
        day = today - datetime.timedelta(days=back)
        lines.append(f"{day.isoformat()}T12:00:00Z,{300 + (back * 397) % 4000},Zazen,completed,,")
    log = tmp_path / "year.csv"
    log.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    browser.get(server.url + "/history/import")
    browser.find_element(By.ID, "field-file").send_keys(str(log))
    settled(browser, lambda d: button(d, "Preview").click())
    settled(browser, lambda d: button(d, "Import").click())
    assert shows(browser, "Imported")

    caption = browser.find_element(By.ID, "year-caption").text
    # A path of squares per shade: as many squares as days sat, each drawn in its cell.
    paths = browser.find_elements(By.CSS_SELECTOR, "svg.year-days path.year-sat")
    squares = sum(path.get_attribute("d").count("M") for path in paths)
    assert caption.startswith(f"The last year: {squares} days sat")
    assert squares >= 240
    assert all(path.size["width"] > 0 for path in paths)
    streak = browser.find_element(By.XPATH, "//dt[.='Streak']/following-sibling::dd[1]").text
    assert int(streak.split()[0]) >= 44
    # Each day's minutes in words, under its month: yesterday's (09:00 in Santiago) among them.
    browser.find_element(By.CSS_SELECTOR, "details.year-months summary").click()
    months = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "details.year-months li")]
    yesterday = today - datetime.timedelta(days=1)
    assert f"{yesterday.day} {yesterday.strftime('%b')} 11 min" in months[-1]  # 697 s
    days = [day for item in months for day in item[item.index("(") + 1:-1].split(", ")]
    assert len(days) == squares
    browser.execute_script("document.querySelector('figure.year').scrollIntoView()")
    screenshot(browser, "history-year")
