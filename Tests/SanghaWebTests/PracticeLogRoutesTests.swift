import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import SanghaWeb
import Testing

/// The history kept by hand: "Add a sit", "Edit sit", "Delete", on SQLite in memory, with the
/// server's clock at 2026-11-24 18:00 UTC.
@Suite("Practice log routes")
struct PracticeLogRoutesTests {
    static func dependencies(_ data: (any OneDatabase)? = nil) throws -> Dependencies {
        var dependencies = try GroupsRoutesTests.dependencies(data)
        dependencies.now = { Date(timeIntervalSince1970: 1_795_543_200) }
        return dependencies
    }

    static func body(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test("Add a sit: kept with its note; a bad value is said by its field, what was typed kept, nothing stored")
    func add() async throws {
        try await withApp(dependencies: try Self.dependencies()) { client in
            let ada = try await client.signedUp()
            // "No sessions yet.", and the form "Add a sit".
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-none") }
            // Each refusal by its field ("A sit cannot be in the future." by the date…), what was
            // typed kept.
            for (form, name) in [
                ("date=2026-11-25&startTime=07:00&duration=20&what=Zazen", "future"),
                ("date=2026-11-24&startTime=07:00&duration=0&what=Zazen", "no-duration"),
                ("date=2026-11-24&startTime=07:00&duration=24:00:01&what=Zazen", "too-long"),
                ("date=2026-02-30&startTime=07:00&duration=20&what=Zazen", "no-such-date"),
                ("date=2026-11-24&startTime=7h&duration=20&what=Zazen", "bad-time"),
                ("date=2026-11-24&startTime=07:00&duration=soon&what=Zazen", "bad-duration"),
                ("date=2026-11-24&startTime=07:00&duration=20&what=+", "no-what"),
            ] {
                try await ada.post("/history/sessions", form: form) { assertResponse($0, named: "add-\(name)") }
            }
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-none") }
            let form = "date=2026-11-24&startTime=06:30&duration=1:05:00&what=Zazen&note=Rain+%26+%3Cwind%3E"
            try await ada.post("/history/sessions", form: form) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/history")
            }
            // Zazen, "Rain &amp; &lt;wind&gt;", 01:05:00, and its Edit link.
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-one") }
        }
    }

    @Test("Edit sit and Delete: one's own only; the totals follow")
    func editAndDelete() async throws {
        try await withApp(dependencies: try Self.dependencies()) { client in
            let ada = try await client.signedUp()
            let bob = try await client.signedUp(username: "bob", name: "Bob Brown")
            try await ada.post("/history/sessions", form: "date=2026-11-24&startTime=06:30&duration=20&what=Zazen") {
                #expect($0.status == .seeOther)
            }
            // The sit's values in the form; Delete asks first.
            try await ada.execute(uri: "/history/sessions/1", method: .get) { assertResponse($0, named: "edit") }
            // Bob cannot read, change or delete it.
            try await bob.execute(uri: "/history/sessions/1", method: .get) { #expect($0.status == .notFound) }
            try await bob.post("/history/sessions/1", form: "date=2026-11-24&startTime=06:30&duration=20&what=Mine") {
                #expect($0.status == .notFound)
            }
            try await bob.post("/history/sessions/1/delete", form: "") { #expect($0.status == .notFound) }

            try await ada.post("/history/sessions/1", form: "date=2026-11-24&startTime=06:30&duration=0&what=Zazen") {
                assertResponse($0, named: "edit-no-duration")
            }
            try await ada.post(
                "/history/sessions/1", form: "date=2026-11-23&startTime=21:15&duration=45&what=Walking&note=Slow"
            ) { response in
                #expect(response.status == .seeOther)
            }
            // Mon 23 Nov 2026, 21:15, Walking, Slow; 45 min in all.
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-edited") }
            try await ada.post("/history/sessions/1/delete", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/history")
            }
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-none") }
            try await ada.execute(uri: "/history/sessions/1", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test("Export: every session of one's own, oldest first, as CSV (RFC 4180 quoting) and JSON, a page at a time")
    func export() async throws {
        var dependencies = try Self.dependencies()
        dependencies.timeZone = TimeZone(identifier: "America/Santiago")!
        try await withApp(dependencies: dependencies) { client in
            let ada = try await client.signedUp()
            let bob = try await client.signedUp(username: "bob", name: "Bob Brown")
            try await bob.post("/history/sessions", form: "date=2026-11-20&startTime=06:00&duration=10&what=Bob%27s") {
                #expect($0.status == .seeOther)
            }
            try await ada.post(
                "/history/sessions",
                form:
                    "date=2026-11-24&startTime=06:30&duration=20&what=Zazen%2C+sitting&note=She+said+%22sit%22%0Athen+left"
            ) { #expect($0.status == .seeOther) }
            try await ada.post(
                "/history/sessions", form: "date=2026-11-23&startTime=21:00&duration=1:00:00&what=Walking"
            ) {
                #expect($0.status == .seeOther)
            }
            try await ada.execute(uri: "/history/export.csv", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/csv; charset=utf-8")
                #expect(
                    response.headers[values: .init("Content-Disposition")!]
                        == ["attachment; filename=\"sangha-history-2026-11-24.csv\""])
                #expect(
                    Self.body(response) == "started_at,seconds,profile,outcome,group,note\r\n"
                        + "2026-11-23T21:00:00-03:00,3600,Walking,completed,,\r\n"
                        + "2026-11-24T06:30:00-03:00,1200,\"Zazen, sitting\",completed,,\"She said \"\"sit\"\"\nthen left\"\r\n"
                )
            }
            try await ada.execute(uri: "/history/export.json", method: .get) { response in
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                // Ada's two sessions alone, oldest first, one a line, keys sorted (no group: none).
                #expect(
                    Self.body(response) == "[\n"
                        + #"{"outcome":"completed","profile":"Walking","seconds":3600,"startedAt":"2026-11-23T21:00:00-03:00"}"#
                        + ",\n"
                        + #"{"note":"She said \"sit\"\nthen left","outcome":"completed","profile":"Zazen, sitting","#
                        + #""seconds":1200,"startedAt":"2026-11-24T06:30:00-03:00"}"# + "\n]\n")
            }
            try await bob.execute(uri: "/history/export.csv", method: .get) { response in
                #expect(
                    Self.body(response)
                        == PracticeLogExport.csvHeader + "2026-11-20T06:00:00-03:00,600,Bob's,completed,,\r\n")
            }
        }
    }

    @Test("Export: more sessions than a page are all written, in order; profiles as JSON")
    func exportPages() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withApp(dependencies: try Self.dependencies(data)) { client in
            let ada = try await client.signedUp()
            let person = try #require(try await data.people.credentials(username: "ada")).person.id
            let count = PracticeLogExport.pageSize * 2 + 7
            for index in 0..<count {
                _ = try await data.sessions(of: person).record(
                    SittingSession(
                        profileID: nil, profileName: "S\(index)",
                        startedAt: Date(timeIntervalSince1970: 1_795_000_000 + Double(index) * 60), seconds: 60,
                        completed: true))
            }
            try await ada.execute(uri: "/history/export.csv", method: .get) { response in
                let lines = Self.body(response).components(separatedBy: "\r\n").dropFirst().dropLast()
                #expect(lines.count == count)
                #expect(lines.map { $0.split(separator: ",")[2] } == (0..<count).map { "S\($0)"[...] })
            }
            try await ada.post("/profiles", form: "name=Evening") { #expect($0.status == .seeOther) }
            try await ada.execute(uri: "/profiles/export.json", method: .get) { response in
                #expect(response.status == .ok)
                let profiles =
                    try JSONSerialization.jsonObject(with: response.body.readableBytesView.withUnsafeBytes { Data($0) })
                    as? [[String: Any]]
                #expect(profiles?.map { $0["name"] as? String } == ["Evening"])
                #expect((profiles?.first?["segments"] as? [Any])?.count == 3)
            }
        }
    }

    /// The token of the file a preview keeps, as its "Import" form sends it.
    static func importToken(in body: String) throws -> String {
        String(try #require(body.firstMatch(of: /name="token" value="([0-9a-f]{64})"/)).1)
    }

    /// A multipart form as a browser sends it: the token, then each field (a file's with a name).
    static func multipart(_ fields: [(name: String, value: String, fileName: String?)]) -> (String, String) {
        let boundary = "----sangha-test-boundary"
        var body = ""
        for field in [(name: "_csrf", value: "CSRF", fileName: nil)] + fields {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field.name)\""
            if let fileName = field.fileName { body += "; filename=\"\(fileName)\"\r\nContent-Type: text/csv" }
            body += "\r\n\r\n\(field.value)\r\n"
        }
        return ("multipart/form-data; boundary=\(boundary)", body + "--\(boundary)--\r\n")
    }

    @Test(
        "Import: a preview, then every new session in one go; the same file again adds nothing; a round trip is byte for byte"
    )
    func importRoundTrip() async throws {
        try await withApp(dependencies: try Self.dependencies()) { client in
            let ada = try await client.signedUp()
            for form in [
                "date=2026-11-24&startTime=06:30&duration=20&what=Zazen%2C+sitting&note=She+said+%22sit%22%0Athen+left",
                "date=2026-11-23&startTime=21:00&duration=1:00:00&what=Walking",
            ] {
                try await ada.post("/history/sessions", form: form) { #expect($0.status == .seeOther) }
            }
            let csv = try await ada.execute(uri: "/history/export.csv", method: .get) { Self.body($0) }
            let json = try await ada.execute(uri: "/history/export.json", method: .get) { Self.body($0) }
            // Everything deleted, then the CSV back.
            for id in [1, 2] {
                try await ada.post("/history/sessions/\(id)/delete", form: "") { #expect($0.status == .seeOther) }
            }
            let (type, preview) = Self.multipart([("file", csv, "history.csv")])
            // "2 sessions to add, 0 already there, 0 lines with problems", and Import (its token shown
            // as TOKEN).
            let token = try await ada.postMultipart("/history/import", contentType: type, body: preview) { response in
                assertResponse(response, named: "preview")
                return try Self.importToken(in: Self.body(response))
            }
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-none") }
            let (_, commit) = Self.multipart([("token", token, nil), ("action", "import", nil)])
            try await ada.postMultipart("/history/import", contentType: type, body: commit) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/history")
            }
            #expect(try await ada.execute(uri: "/history/export.csv", method: .get) { Self.body($0) } == csv)
            #expect(try await ada.execute(uri: "/history/export.json", method: .get) { Self.body($0) } == json)
            // The same file again, as CSV or as JSON: nothing to add.
            for (file, name) in [(csv, "history.csv"), (json, "history.json")] {
                let (_, again) = Self.multipart([("file", file, name)])
                // "0 sessions to add, 2 already there, 0 lines with problems", and no Import.
                try await ada.postMultipart("/history/import", contentType: type, body: again) {
                    assertResponse($0, named: "preview-again")
                }
            }
            // Its token is used: "Import" again imports nothing.
            try await ada.postMultipart("/history/import", contentType: type, body: commit) {
                #expect($0.status == .gone)
            }
            #expect(try await ada.execute(uri: "/history/export.csv", method: .get) { Self.body($0) } == csv)
        }
    }

    @Test(
        "A sit posted with a start to the millisecond is kept to the second, so its own export imports as already there"
    )
    func wholeSeconds() async throws {
        try await withApp(dependencies: try Self.dependencies()) { client in
            let ada = try await client.signedUp()
            try await ada.post("/profiles", form: "name=Morning") { #expect($0.status == .seeOther) }
            try await ada.post(
                "/sessions",
                form: "profile=1&profileName=Morning&startedAt=2026-11-24T06:30:00.789Z&seconds=600&completed=true"
            ) { #expect($0.status == .seeOther) }
            let csv = try await ada.execute(uri: "/history/export.csv", method: .get) { Self.body($0) }
            #expect(csv.contains("T06:30:00"), "\(csv)")
            let (type, preview) = Self.multipart([("file", csv, "history.csv")])
            try await ada.postMultipart("/history/import", contentType: type, body: preview) { response in
                let page = Self.body(response)
                #expect(page.contains(Words.english.historyAlreadyThere(1)), "\(page)")
                #expect(!page.contains("name=\"token\""), "nothing to import")
            }
        }
    }

    @Test("Import: a file with bad lines shows each and changes nothing; too large is 413; the token is needed")
    func importProblems() async throws {
        try await withApp(dependencies: try Self.dependencies()) { client in
            let ada = try await client.signedUp()
            let file =
                PracticeLogExport.csvHeader
                + "2026-11-20T06:00:00Z,600,Zazen,completed,,\r\n"
                + "yesterday,600,Zazen,completed,,\r\n"
                + "2026-11-21T06:00:00Z,0,Zazen,completed,,\r\n"
                + "2026-11-22T06:00:00Z,600,Zazen,finished,,\r\n"
                + "2030-01-01T06:00:00Z,600,Zazen,completed,,\r\n"
            let (type, body) = Self.multipart([("file", file, "history.csv")])
            // "1 session to add, 0 already there, 4 lines with problems", each line's said; no Import.
            try await ada.postMultipart("/history/import", contentType: type, body: body) {
                assertResponse($0, named: "bad-lines")
            }
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-none") }
            // 300 bad lines: the first 20 are listed, the rest counted. (Not more: a debug build
            // reads 10,000 in 7 s, on a thread other tests need.)
            let many =
                PracticeLogExport.csvHeader + String(repeating: "yesterday,600,Zazen,completed,,\r\n", count: 300)
            let (_, manyBody) = Self.multipart([("file", many, "bad.csv")])
            // Lines 2 to 21, then "…and 280 more lines with problems."
            try await ada.postMultipart("/history/import", contentType: type, body: manyBody) {
                assertResponse($0, named: "many-bad-lines")
            }
            let (_, header) = Self.multipart([("file", "when,how long\r\n", "other.csv")])
            try await ada.postMultipart("/history/import", contentType: type, body: header) {
                assertResponse($0, named: "bad-header")
            }
            let (_, huge) = Self.multipart([
                ("file", String(repeating: "x", count: PracticeLogImport.uploadLimit + 1), "big.csv")
            ])
            try await ada.postMultipart("/history/import", contentType: type, body: huge) {
                #expect($0.status == .contentTooLarge)
            }
            try await ada.postMultipart("/history/import", contentType: type, body: body, token: false) {
                #expect($0.status == .forbidden)
            }
            // A quote left open, text after a closing quote: said, and nothing imported.
            let quotes =
                PracticeLogExport.csvHeader + "2026-11-20T06:00:00Z,600,\"Zazen\"x,completed,,\r\n"
                + "2026-11-21T06:00:00Z,600,Zazen,completed,,\"open note\r\n"
            let (_, broken) = Self.multipart([("file", quotes, "broken.csv")])
            try await ada.postMultipart("/history/import", contentType: type, body: broken) {
                assertResponse($0, named: "bad-quotes")
            }
            // A form with a file anywhere else is not taken for the form that page has.
            try await ada.postMultipart("/history/sessions", contentType: type, body: body) {
                #expect($0.status == .unsupportedMediaType)
            }
        }
    }
}

extension PracticeLogRoutesTests {
    @Test("A field a spreadsheet would take for a formula is exported after a quote, and imported back as it was")
    func formulas() async throws {
        try await withApp(dependencies: try Self.dependencies()) { client in
            let ada = try await client.signedUp()
            try await ada.post(
                "/history/sessions", form: "date=2026-11-24&startTime=06:30&duration=20&what=-Zazen&note=%3D1%2B1"
            ) { #expect($0.status == .seeOther) }
            let csv = try await ada.execute(uri: "/history/export.csv", method: .get) { Self.body($0) }
            #expect(csv == PracticeLogExport.csvHeader + "2026-11-24T06:30:00Z,1200,'-Zazen,completed,,'=1+1\r\n")
            try await ada.post("/history/sessions/1/delete", form: "") { #expect($0.status == .seeOther) }
            let (type, preview) = Self.multipart([("file", csv, "history.csv")])
            let token = try await ada.postMultipart("/history/import", contentType: type, body: preview) {
                try Self.importToken(in: Self.body($0))
            }
            let (_, body) = Self.multipart([("token", token, nil), ("action", "import", nil)])
            try await ada.postMultipart("/history/import", contentType: type, body: body) {
                #expect($0.status == .seeOther)
            }
            #expect(try await ada.execute(uri: "/history/export.csv", method: .get) { Self.body($0) } == csv)
            // "-Zazen", "=1+1": as typed.
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history") }
        }
    }

    @Test("Saving a note alone keeps the start to the second and a length over 24 hours")
    func editKeepsWhatIsNotShown() async throws {
        try await withApp(dependencies: try Self.dependencies()) { client in
            let ada = try await client.signedUp()
            try await ada.post("/profiles", form: "name=Long") { #expect($0.status == .seeOther) }
            try await ada.post(
                "/sessions", form: "profile=1&startedAt=2026-11-22T06:30:17Z&seconds=100000&completed=true"
            ) { #expect($0.status == .seeOther) }
            try await ada.post(
                "/history/sessions/1", form: "date=2026-11-22&startTime=06:30&duration=27:46:40&what=Long&note=Retreat"
            ) { #expect($0.status == .seeOther) }
            let csv = try await ada.execute(uri: "/history/export.csv", method: .get) { Self.body($0) }
            #expect(csv.hasSuffix("2026-11-22T06:30:17Z,100000,Long,completed,,Retreat\r\n"))
        }
    }
}

extension PracticeLogRoutesTests {
    @Test("'Show streaks' off hides the streak on History, Home and the person's page; on shows it")
    func hiddenStreaks() async throws {
        try await withApp(dependencies: try Self.dependencies()) { client in
            let ada = try await client.signedUp()
            try await ada.post("/history/sessions", form: "date=2026-11-24&startTime=06:30&duration=20&what=Zazen") {
                #expect($0.status == .seeOther)
            }
            // "Streak 1 day" on each.
            for (path, name) in [("/history", "history"), ("/", "home"), ("/me", "me")] {
                try await ada.execute(uri: path, method: .get) { assertResponse($0, named: "\(name)-streak") }
            }
            // "Show streaks", checked.
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-streaks") }
            try await ada.post("/settings", form: "name=Ada+Lovelace&showWhenSitting=on") {
                #expect($0.status == .seeOther)
            }
            // No streak on any.
            for (path, name) in [("/history", "history"), ("/", "home"), ("/me", "me")] {
                try await ada.execute(uri: path, method: .get) { assertResponse($0, named: "\(name)-no-streak") }
            }
            try await ada.post("/settings", form: "name=Ada+Lovelace&showStreaks=on") {
                #expect($0.status == .seeOther)
            }
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-streak") }
        }
    }
}

extension SignedInClient {
    /// Posts a multipart form (`PracticeLogRoutesTests.multipart`) as the signed-in browser's
    /// page would, its token put in (or not).
    @discardableResult func postMultipart<Return>(
        _ uri: String, contentType: String, body: String, token: Bool = true,
        _ test: @escaping (TestResponse) async throws -> Return
    ) async throws -> Return {
        let signed = token ? FormPost.formToken(cookies: [sessionCookie]) : "not-the-token"
        return try await execute(
            uri: uri, method: .post,
            headers: [.contentType: contentType, .cookie: "sangha_csrf=\(FormPost.token)"],
            body: ByteBuffer(string: body.replacingOccurrences(of: "\r\n\r\nCSRF\r\n", with: "\r\n\r\n\(signed)\r\n")),
            testCallback: test)
    }
}

extension PracticeLogRoutesTests {
    @Test(
        "Days are the person's: sign-up keeps the browser's time zone, Settings changes it and the hour a day starts, and the history, streak and export follow"
    )
    func personalDays() async throws {
        // Now: Tuesday 24 November 2026, 18:00 UTC (03:00 on the 25th in Tokyo).
        try await withApp(dependencies: try Self.dependencies()) { client in
            let cookie = try await client.post(
                "/sign-up",
                form:
                    "name=Ada&username=ada&password=\(TestDependencies.password.replacingOccurrences(of: " ", with: "+"))&timeZone=Asia%2FTokyo"
            ) { response in
                try #require(
                    response.headers[values: .setCookie].first { $0.hasPrefix("sangha_session=") }.map {
                        String($0.prefix { $0 != ";" })
                    })
            }
            let ada = SignedInClient(base: client, sessionCookie: cookie)
            // Asia/Tokyo chosen, days from 00:00.
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-tokyo") }
            // Typed in Tokyo: 22:00 on the 24th, and 08:30 that morning.
            for time in ["22:00", "08:30"] {
                try await ada.post(
                    "/history/sessions", form: "date=2026-11-24&startTime=\(time)&duration=20&what=Zazen"
                ) {
                    #expect($0.status == .seeOther)
                }
            }
            // Not sat yet on the 25th: the streak is the 24th's.
            // Tue 24 Nov 2026, 22:00 and 08:30; a streak of 1 day.
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-tokyo") }
            let csv = try await ada.execute(uri: "/history/export.csv", method: .get) { Self.body($0) }
            #expect(
                csv == PracticeLogExport.csvHeader + "2026-11-24T08:30:00+09:00,1200,Zazen,completed,,\r\n"
                    + "2026-11-24T22:00:00+09:00,1200,Zazen,completed,,\r\n")

            // In UTC the morning sit is the evening before (23:30 on the 23rd): two days in a row.
            try await ada.post("/settings", form: "name=Ada&showStreaks=on&timeZone=UTC&dayStartHour=0") {
                #expect($0.status == .seeOther)
            }
            // Tue 24 Nov 2026, 13:00 and Mon 23 Nov 2026, 23:30; a streak of 2 days, on Home too.
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-utc") }
            try await ada.execute(uri: "/", method: .get) { assertResponse($0, named: "home-utc") }
            // In Santiago (UTC−3) with days from 06:00: 20:30 on the 23rd and 10:00 on the 24th.
            try await ada.post("/settings", form: "name=Ada&showStreaks=on&timeZone=America%2FSantiago&dayStartHour=6")
            {
                #expect($0.status == .seeOther)
            }
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-santiago") }

            // What is not on the lists is refused by its field, nothing saved.
            try await ada.post("/settings", form: "name=Ada&timeZone=Mars%2FOlympus&dayStartHour=7") {
                assertResponse($0, named: "settings-not-on-the-lists")
            }
            // Still America/Santiago, from 06:00.
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-santiago") }
        }
    }
}
