"""The group's sits in a person's calendar: Settings makes a private link, and what any
calendar app reads there is RFC 5545 that a real parser (Python's icalendar) reads intact, with a
weekly sit at the right instants across a change to summer time."""

import datetime
import urllib.error
import urllib.request

import icalendar
import pytest
import recurring_ical_events
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import button, field, fill, press, screenshot, settled, shows, shows_heading

pytestmark = pytest.mark.usefixtures("signed_in")
GROUP = 'Morning, "quiet"; sangha'
UTC = datetime.timezone.utc


def fetch(url):
    """The feed as a calendar app reads it: no cookie."""
    with urllib.request.urlopen(url, timeout=5) as response:
        assert response.headers["Content-Type"] == "text/calendar; charset=utf-8"
        return response.read()


def calendar_link(browser):
    return settled(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".one-time-link-url").get_attribute("value"))


def _weekly_sit_in_berlin(server, browser):
    """Ada lives in Berlin; her group sits every Monday at 07:00 from 15 March 2027, across
    the change to summer time on 28 March."""
    browser.get(server.url + "/settings")
    settled(browser, lambda d: Select(field(d, "Time zone")).select_by_value("Europe/Berlin"))
    # A time input's typing depends on the locale: its value is set as a picker sets it.
    browser.execute_script("arguments[0].value = '07:30';", field(browser, "Remind me to sit at"))
    press(browser, "Save")
    assert shows(browser, "Settings saved.")
    browser.get(server.url + "/profiles")
    fill(browser, "Name", "Dawn")
    press(browser, "Create profile")
    fill(browser, "Duration", "20:00")
    press(browser, "Save")
    browser.get(server.url + "/groups")
    fill(browser, "Name", GROUP)
    press(browser, "Create group")
    assert shows_heading(browser, GROUP)
    browser.execute_script("arguments[0].value = '2027-03-15T07:00';", field(browser, "Date and time"))
    field(browser, "Every week").click()
    press(browser, "Schedule a sit")
    assert shows(browser, "The sit is scheduled.")
    return browser.current_url


def test_the_feed_is_read_intact_by_a_real_parser_and_a_weekly_sit_keeps_its_time_across_summer_time(
        server, browser):
    group_url = _weekly_sit_in_berlin(server, browser)
    browser.get(server.url + "/settings")
    press(browser, "Create calendar link")
    link = calendar_link(browser)
    browser.execute_script("document.getElementById('calendar-heading').scrollIntoView()")
    screenshot(browser, "settings-calendar")
    assert link.startswith(server.url + "/calendar/") and link.endswith(".ics")

    calendar = icalendar.Calendar.from_ical(fetch(link))
    events = calendar.walk("VEVENT")
    sit = next(event for event in events if str(event["UID"]).startswith("group-sit-"))
    assert str(sit["SUMMARY"]) == f"Dawn · {GROUP}"
    description = str(sit["DESCRIPTION"])
    assert description.startswith(f"{GROUP} sits together: 20 min.\nJoin on Sangha: {server.url}/groups/")
    assert str(sit["URL"]).startswith(server.url + "/groups/") and str(sit["STATUS"]) == "CONFIRMED"
    assert sit.decoded("DTSTART").tzinfo is not None
    alarm = sit.walk("VALARM")[0]
    assert alarm.decoded("TRIGGER") == datetime.timedelta(minutes=-10)
    assert {str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")} == {"Europe/Berlin"}

    # Every Monday at 07:00 in Berlin: 06:00 UTC in winter, 05:00 UTC from 28 March.
    sits = recurring_ical_events.of(calendar).between(datetime.datetime(2027, 3, 14), datetime.datetime(2027, 4, 10))
    starts = sorted(event.decoded("DTSTART").astimezone(UTC) for event in sits if "group-sit" in str(event["UID"]))
    assert starts == [datetime.datetime(2027, 3, day, hour, tzinfo=UTC) for day, hour in
                      ((15, 6), (22, 6), (29, 5))] + [datetime.datetime(2027, 4, 5, 5, tzinfo=UTC)]
    # The daily reminder, at 07:30 in Berlin, its alarm at its start.
    reminders = [event for event in sits if str(event["SUMMARY"]) == "Time to sit"]
    assert len(reminders) == 27
    assert {event.decoded("DTSTART").strftime("%H:%M") for event in reminders} == {"07:30"}

    # A cancelled sit is in the feed as cancelled; a reset link's old address is 404.
    browser.get(group_url)
    settled(browser, lambda d: d.find_element(By.PARTIAL_LINK_TEXT, "Dawn").click())
    assert shows(browser, "Add to calendar")
    browser.execute_script("window.confirm = () => true")  # "Cancel this sit for everyone?"
    press(browser, "Cancel sit")
    cancelled = icalendar.Calendar.from_ical(fetch(link))
    assert [str(event["STATUS"]) for event in cancelled.walk("VEVENT") if "group-sit" in str(event["UID"])] == [
        "CANCELLED"]
    browser.get(server.url + "/settings")
    press(browser, "Reset calendar link")
    new_link = calendar_link(browser)
    assert new_link != link
    with pytest.raises(urllib.error.HTTPError) as refused:
        fetch(link)
    assert refused.value.code == 404
    assert icalendar.Calendar.from_ical(fetch(new_link)).walk("VEVENT")
