import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaTestSupport
import SanghaWeb
import Testing

/// Calendars through the routes, on SQLite in memory: a link made in Settings and shown once, a
/// feed read without a cookie (304 while it is the same), reset, and one sit's file.
@Suite("Calendar routes")
struct CalendarRoutesTests {
    static func link(in body: String) throws -> String {
        String(try #require(body.firstMatch(of: /http:\/\/[^"]+(\/calendar\/[0-9a-f]{64}\.ics)/)).1)
    }

    @Test(
        "Create calendar link, read the feed without a cookie (ETag, 304), add a reminder, reset: the old address is 404"
    )
    func feed() async throws {
        let clock = PeopleRoutesTests.TestClock(GroupsRoutesTests.tuesday)
        try await withApp(dependencies: try GroupsRoutesTests.dependencies(clock: clock)) { client in
            let ada = try await client.signedUp()
            // "You have no calendar link yet.", and a button to create one.
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-no-link") }
            // The link (shown as TOKEN), and a button to reset it.
            let first = try await ada.post("/settings/calendar", form: "") { response in
                assertResponse(response, named: "link")
                return try Self.link(in: String(buffer: response.body))
            }
            // Shown only once: Settings has a link, not its address (which would show as TOKEN).
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-link") }
            try await ada.post("/groups", form: "name=Morning%2C+%22quiet%22%3B+sangha") {
                #expect($0.status == .seeOther)
            }
            try await ada.post("/profiles", form: "name=Dawn") { #expect($0.status == .seeOther) }
            try await ada.post("/groups/1/sits", form: "profile=1&startsAt=2027-03-01T07:00&weekly=on") {
                #expect($0.status == .seeOther)
            }
            // The weekly sit (group-sit-1), its summary escaped (Dawn · Morning\, "quiet"\; sangha);
            // no reminder.
            let etag = try await client.execute(uri: first, method: .get) { response in
                assertResponse(response, named: "feed-one-sit")
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: first, method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            // Compared weakly, as RFC 9110 has If-None-Match: a proxy that compresses passes the tag
            // on as W/"…"; and * is any tag. Another tag is not this feed.
            for match in ["W/\(etag)", "\"other\", \(etag)", "*"] {
                try await client.execute(uri: first, method: .get, headers: [.ifNoneMatch: match]) { response in
                    #expect(response.status == .notModified, "\(match)")
                }
            }
            try await client.execute(uri: first, method: .get, headers: [.ifNoneMatch: "W/\"other\""]) {
                #expect($0.status == .ok)
            }
            // A sit scheduled since is in it at once (the feed this instance kept is forgotten).
            try await ada.post("/groups/1/sits", form: "profile=1&startsAt=2027-03-02T07:00") {
                #expect($0.status == .seeOther)
            }
            let etagWithTwo = try await client.execute(uri: first, method: .get, headers: [.ifNoneMatch: etag]) {
                response in
                // 200: group-sit-2 as well.
                assertResponse(response, named: "feed-two-sits")
                return try #require(response.headers[.eTag])
            }
            // A reminder changes the feed.
            // 422: "Enter a time of day as HH:MM…".
            try await ada.post("/settings", form: "name=Ada+Lovelace&reminder=25%3A00") {
                assertResponse($0, named: "reminder-invalid")
            }
            try await ada.post("/settings", form: "name=Ada+Lovelace&reminder=07%3A30") {
                #expect($0.status == .seeOther)
            }
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-reminder") }
            // 200: "Time to sit" at 07:30, daily, as well.
            try await client.execute(uri: first, method: .get, headers: [.ifNoneMatch: etagWithTwo]) {
                assertResponse($0, named: "feed-reminder")
            }
            // Reset: the old address finds nothing; the new one does.
            let second = try await ada.post("/settings/calendar", form: "") {
                try Self.link(in: String(buffer: $0.body))
            }
            #expect(second != first)
            try await client.execute(uri: first, method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: second, method: .get) { #expect($0.status == .ok) }
            for uri in ["/calendar/nothing.ics", "/calendar/\(String(repeating: "0", count: 64)).ics"] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .notFound, "\(uri)") }
            }
        }
    }

    @Test("Add to calendar: the sit's file for its group's members, 404 to anyone else")
    func sitFile() async throws {
        let clock = PeopleRoutesTests.TestClock(GroupsRoutesTests.tuesday)
        try await withApp(dependencies: try GroupsRoutesTests.dependencies(clock: clock)) { client in
            let ada = try await client.signedUp()
            let bob = try await client.signedUp(username: "bob", name: "Bob Brown")
            try await ada.post("/groups", form: "name=Zen") { #expect($0.status == .seeOther) }
            try await ada.post("/profiles", form: "name=Dawn") { #expect($0.status == .seeOther) }
            try await ada.post("/groups/1/sits", form: "profile=1&startsAt=2027-03-01T07:00") {
                #expect($0.status == .seeOther)
            }
            // The sit's page, with "Add to calendar" (/groups/1/sits/1/calendar.ics, download).
            try await ada.execute(uri: "/groups/1/sits/1", method: .get) { assertResponse($0, named: "sit") }
            // One event, its URL the sit's page.
            try await ada.execute(uri: "/groups/1/sits/1/calendar.ics", method: .get) { response in
                #expect(response.headers[.contentDisposition] == #"attachment; filename="sit.ics""#)
                assertResponse(response, named: "sit-file")
            }
            // Sit 2 is another group's: not found under the first's address, found under its own.
            try await ada.post("/groups", form: "name=Solo") { #expect($0.status == .seeOther) }
            try await ada.post("/groups/2/sits", form: "profile=1&startsAt=2027-03-02T07:00") {
                #expect($0.status == .seeOther)
            }
            try await ada.execute(uri: "/groups/2/sits/2/calendar.ics", method: .get) { #expect($0.status == .ok) }
            for (person, uri) in [
                (bob, "/groups/1/sits/1/calendar.ics"), (ada, "/groups/1/sits/2/calendar.ics"),
                (ada, "/groups/1/sits/3/calendar.ics"), (bob, "/groups/2/sits/2/calendar.ics"),
            ] {
                try await person.execute(uri: uri, method: .get) { #expect($0.status == .notFound, "\(uri)") }
            }
        }
    }
}
