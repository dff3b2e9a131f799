import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import SnapshotTesting
import Testing

@testable import SanghaWeb

/// Each page's main states as whole responses: the status, the headers that matter and the
/// body, stored as readable files in `__Snapshots__/RouteSnapshotTests/`. A change to any of
/// them shows in review as a diff of what a browser receives.
@Suite("Whole responses of every page's main states")
struct RouteSnapshotTests {
    static let clock = Date(timeIntervalSince1970: 1_795_000_000)

    /// The app on `data` with `friends`, on a clock that stands still in UTC: the dates and
    /// times in the pages are the same on every run.
    static func dependencies(
        _ data: SQLitePersonalData, friends: FakeFriendService = .listing([.jane, .kenji])
    ) throws -> Dependencies {
        try TestDependencies.make(
            data: data, friends: friends, now: { Self.clock }, timeZone: TimeZone(identifier: "UTC")!)
    }

    /// `test` signed in as Ada, who has `profiles` and `sessions` (stored once she signed up),
    /// and `friends`.
    static func withAda(
        profiles: [Profile] = [RouteSnapshotTests.morning],
        friends: FakeFriendService = .listing([.jane, .kenji]),
        sessions: [SittingSession] = [],
        _ test: @Sendable (SignedInClient) async throws -> Void
    ) async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(dependencies: Self.dependencies(data, friends: friends)) { client in
            try await data.store(profiles: profiles, sessions: sessions, of: 1)
            try await test(client)
        }
    }

    static let morning: Profile = {
        var profile = Profile.new(named: "Morning")
        (profile.id, profile.version) = (1, 1)
        profile[.warmUp].enabled = true
        return profile
    }()

    /// GETs `uri` as a browser with its CSRF cookie would, and compares the whole response.
    func assertPage(
        _ client: any TestClientProtocol, _ uri: String, named name: String, accept: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        var headers: HTTPFields = [.cookie: "sangha_csrf=\(FormPost.token)"]
        if let accept { headers[.accept] = accept }
        try await client.execute(uri: uri, method: .get, headers: headers) { response in
            assertSnapshot(of: response, as: .response, named: name, testName: "route")
        }
    }

    func assertPost(_ client: any TestClientProtocol, _ uri: String, form: String, named name: String) async throws {
        try await client.post(uri, form: form) { response in
            assertSnapshot(of: response, as: .response, named: name, testName: "route")
        }
    }

    @Test("Home: both panels; the FriendService down")
    func home() async throws {
        try await Self.withAda { client in
            try await assertPage(client, "/", named: "home")
        }
        try await Self.withAda(profiles: [], friends: .failing(.transport("down"))) { client in
            try await assertPage(client, "/", named: "home-empty-friends-down")
        }
    }

    @Test("Profiles: the list, creating (303, 422), the editor, saving (303, 422, 409), unknown (404)")
    func profiles() async throws {
        try await Self.withAda { client in
            try await assertPage(client, "/profiles", named: "profiles")
            try await assertPost(client, "/profiles", form: "name=", named: "profiles-create-invalid")
            try await assertPost(client, "/profiles", form: "name=Evening", named: "profiles-create")
            try await assertPage(client, "/profiles/1", named: "profile-editor")
            try await assertPage(client, "/profiles/1", named: "profile-editor-json", accept: "application/json")
            try await assertPost(
                client, "/profiles/1", form: "version=1&name=Morning&main.duration=soon",
                named: "profile-editor-invalid")
            try await assertPost(
                client, "/profiles/1", form: "version=1&name=Morning&main.duration=20", named: "profile-editor-save")
            try await assertPost(
                client, "/profiles/1", form: "version=1&name=Stale&main.duration=10", named: "profile-editor-conflict")
            try await assertPage(client, "/profiles/9", named: "profile-editor-not-found")
        }
    }

    /// Two mornings with Morning, the second today; an evening stopped, of a deleted profile.
    static let sessions: [SittingSession] = [
        SittingSession(
            profileID: 1, profileName: "Morning", startedAt: clock.addingTimeInterval(-86_400 - 3600), seconds: 750,
            completed: true),
        SittingSession(
            profileID: nil, profileName: "Evening", startedAt: clock.addingTimeInterval(-50_000), seconds: 600,
            completed: false),
        SittingSession(
            profileID: 1, profileName: "Morning", startedAt: clock.addingTimeInterval(-3600), seconds: 750,
            completed: true),
    ]

    @Test("Sitting and history: the sitting page, recording (303), the history (HTML, JSON), its bad pages (400, 404)")
    func sittingAndHistory() async throws {
        try await Self.withAda(sessions: Self.sessions) { client in
            try await assertPage(client, "/profiles/1/sit", named: "sitting")
            try await assertPost(
                client, "/sessions", form: "profile=1&startedAt=2026-11-18T10:00:00Z&seconds=60&completed=false",
                named: "sessions-record")
            try await assertPage(client, "/history", named: "history")
            try await assertPage(client, "/history", named: "history-json", accept: "application/json")
            try await assertPage(client, "/history?page=0", named: "history-bad-page")
            try await assertPage(client, "/history?page=2", named: "history-no-such-page")
            try await assertPage(client, "/", named: "home-practice")
        }
        try await Self.withAda { client in
            try await assertPage(client, "/history", named: "history-empty")
        }
    }

    @Test("Friends: rows, search, the error row; the form, adding (303, 422, 502); unknown (404)")
    func friends() async throws {
        let service = FakeFriendService(
            list: { [.jane, .kenji] },
            add: { draft throws(FriendServiceError) in
                guard draft.firstname != "Down" else { throw FriendServiceError(.transport("refused")) }
                return Friend(
                    id: 3, firstname: draft.firstname, lastname: draft.lastname, phonenumber: draft.phonenumber)
            }
        )
        try await Self.withAda(friends: service) { client in
            try await assertPage(client, "/friends", named: "friends")
            try await assertPage(client, "/friends?q=zed", named: "friends-search-no-match")
            try await assertPage(client, "/friends/new", named: "friend-form")
            try await assertPost(
                client, "/friends", form: "firstname=J4ne&lastname=&phonenumber=12", named: "friend-form-invalid")
            try await assertPost(
                client, "/friends", form: "firstname=Amira&lastname=Haddad&phonenumber=%2B447700900123",
                named: "friend-form-added")
            try await assertPost(
                client, "/friends", form: "firstname=Down&lastname=Service&phonenumber=123456",
                named: "friend-form-service-down")
            try await assertPage(client, "/friends/9/edit", named: "friend-edit-not-found")
        }
        try await Self.withAda(friends: .failing(.unauthorized)) { client in
            try await assertPage(client, "/friends", named: "friends-unauthorized")
        }
    }

    @Test("Errors: an unknown address (404), a wrong method (405)")
    func errors() async throws {
        try await Self.withAda { client in
            try await assertPage(client, "/nowhere", named: "not-found")
            try await client.execute(
                uri: "/friends/1/edit", method: .delete, headers: FormPost.headers(), body: FormPost.body("")
            ) { response in
                assertSnapshot(of: response, as: .response, named: "method-not-allowed", testName: "route")
            }
        }
    }
}

extension Snapshotting where Value == TestResponse, Format == String {
    /// The response as a reader sees it: status line, the headers that say what it is and what
    /// it does (type, location, allowed methods, caching, cookies), a blank line, the body.
    /// The static files' digests are shown as `DIGEST`, so a stylesheet edit does not rewrite
    /// every page's snapshot, and the form token (made for each run's session) as `FORM-TOKEN`.
    /// The secrets made anew in every run are shown by what they are: a session's key as
    /// `SESSION`, a link's token (an invitation, a password reset, a calendar feed, a file
    /// previewed for import) as `TOKEN`.
    /// The time zones Settings lists come from the machine's tzdata: those not chosen are shown
    /// as `ZONES`, so a tzdata update does not rewrite the snapshot. A NUL byte a page echoes is
    /// shown as `␀`, so the file stays text.
    static var response: Snapshotting {
        var snapshotting = Snapshotting<String, String>.lines.pullback { (response: TestResponse) -> String in
            var text = "HTTP \(response.status.code) \(response.status.reasonPhrase)\n"
            let names: [HTTPField.Name] = [.contentType, .location, .allow, .cacheControl, .setCookie]
            for name in names {
                for value in response.headers[values: name] {
                    text += "\(name): \(name == .setCookie ? Self.attributesSorted(value) : value)\n"
                }
            }
            // A form token is made for the session, which is new in every run.
            let body = String(buffer: response.body)
                .replacing(/\.[0-9a-f]{16}\.(css|js|svg|png)"/) { ".DIGEST.\($0.1)\"" }
                .replacing(/name="_csrf" value="[0-9a-f]{64}"/) { _ in #"name="_csrf" value="FORM-TOKEN""# }
                .replacing(/name="sangha-form-token" content="[0-9a-f]{64}"/) { _ in
                    #"name="sangha-form-token" content="FORM-TOKEN""#
                }
                .replacing(/"formToken":"[0-9a-f]{64}"/) { _ in #""formToken":"FORM-TOKEN""# }
                .replacing(/(?:[ ]*<option value="[A-Za-z]+\/[^"]+">[^<]*<\/option>\n)+/) { _ in "      ZONES\n" }
            return Self.secretsNamed(text + "\n" + body).replacing("\u{0}", with: "␀")
        }
        snapshotting.pathExtension = "txt"
        return snapshotting
    }

    /// `text` with the secrets a run makes named: the session cookie's key, and the 64 hex
    /// digits of a link's token (`/groups/invite/…`, `invitation=…`, `token=…`, `/calendar/…`,
    /// and the form's hidden `invitation` or `token` that carries it on).
    static func secretsNamed(_ text: String) -> String {
        text.replacing(/(sangha_session=)[0-9a-f]{64}/) { "\($0.1)SESSION" }
            .replacing(/(invite\/|invitation=|token=|calendar\/|name="(?:invitation|token)" value=")[0-9a-f]{64}/) {
                "\($0.1)TOKEN"
            }
    }

    /// `name=value` first, then the attributes in a fixed order (Hummingbird writes them in
    /// the order of a dictionary, which differs from run to run).
    static func attributesSorted(_ cookie: String) -> String {
        let parts = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        return ([parts[0]] + parts.dropFirst().sorted()).joined(separator: "; ")
    }
}

@Suite("Outcome statuses")
struct OutcomeStatusTests {
    @Test("Each page failure and each refused account form has its status")
    func statuses() {
        #expect([PageFailure.notFound, .remoteService, .storage].map(\.status.code) == [404, 502, 503])
        let refusals: [AccountOutcome<SignInViewModel>.Refusal] = [
            .invalid, .wrongCredentials, .tooManyAttempts, .storage,
        ]
        #expect(refusals.map(\.status.code) == [422, 401, 429, 503])
    }

    @Test("Each HTTP status of a failed request has its error page's words")
    func errorPageKinds() {
        #expect(ErrorPageViewModel.Kind(.notFound) == .notFound)
        #expect(ErrorPageViewModel.Kind(.badRequest) == .badRequest)
        #expect(ErrorPageViewModel.Kind(.contentTooLarge) == .contentTooLarge)
        #expect(ErrorPageViewModel.Kind(.unauthorized) == .signInRequired)
        #expect(ErrorPageViewModel.Kind(.internalServerError) == .other(reasonPhrase: "Internal Server Error"))
    }
}

extension RouteSnapshotTests {
    @Test(
        "People: sign-in and sign-up signed out, a wrong password (401), a sign-up refused (422); /admin, /me, /settings and a refused save (422)"
    )
    func people() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withApp(dependencies: Self.dependencies(data)) { client in
            try await assertPage(client, "/sign-in", named: "sign-in")
            try await assertPage(client, "/sign-up", named: "sign-up")
            try await assertPost(client, "/sign-up", form: "name=&username=a&password=short", named: "sign-up-invalid")
            let ada = try await client.signedUp()
            try await data.store(profiles: [Self.morning], of: 1)
            try await assertPage(ada, "/admin", named: "admin")
            try await assertPage(ada, "/me", named: "me")
            try await assertPage(ada, "/settings", named: "settings")
            try await assertPost(
                ada, "/settings", form: "name=&about=&timeZone=Nowhere/Atlantis&dayStartHour=4",
                named: "settings-invalid")
            try await assertPost(
                client, "/sign-in", form: "username=ada&password=not+the+password", named: "sign-in-wrong-password")
        }
    }

    @Test(
        "The log: adding a sit (303, and 422), its edit page, the import page, a file's preview, its import (303) and that import again (410)"
    )
    func practiceLog() async throws {
        try await Self.withAda { client in
            try await assertPost(
                client, "/history/sessions", form: "date=2026-11-17&startTime=06:30&duration=20&what=Zazen&note=Still",
                named: "history-add")
            try await assertPage(client, "/history/sessions/1", named: "history-session-edit")
            try await assertPost(
                client, "/history/sessions", form: "date=2026-11-19&startTime=25:00&duration=0&what=Zazen",
                named: "history-add-invalid")
            try await assertPage(client, "/history/import", named: "history-import")
            let file = PracticeLogExport.csvHeader + "2026-11-17T06:00:00Z,600,Zazen,completed,,\r\n"
            let (type, body) = PracticeLogRoutesTests.multipart([("file", file, "history.csv")])
            let token = try await client.postMultipart("/history/import", contentType: type, body: body) { response in
                assertSnapshot(of: response, as: .response, named: "history-import-preview", testName: "route")
                return try PracticeLogRoutesTests.importToken(in: String(buffer: response.body))
            }
            let (_, commit) = PracticeLogRoutesTests.multipart([("token", token, nil), ("action", "import", nil)])
            try await client.postMultipart("/history/import", contentType: type, body: commit) { response in
                assertSnapshot(of: response, as: .response, named: "history-import-commit", testName: "route")
            }
            // The file is imported and no longer kept: nothing to import again.
            try await client.postMultipart("/history/import", contentType: type, body: commit) { response in
                assertSnapshot(of: response, as: .response, named: "history-import-expired", testName: "route")
            }
        }
    }

    @Test("Groups: the list, creating (303), a group's page, scheduling a sit (422, 303), the sit's page")
    func groups() async throws {
        try await withSignedInApp(
            dependencies: Self.dependencies(try SQLitePersonalData.inMemory(), friends: .listing([]))
        ) { client in
            try await client.post("/profiles", form: "name=Morning") { #expect($0.status == .seeOther) }
            try await assertPage(client, "/groups", named: "groups-empty")
            try await assertPost(client, "/groups", form: "name=Morning+sangha", named: "groups-create")
            try await assertPage(client, "/groups", named: "groups")
            try await assertPage(client, "/groups/1", named: "group")
            try await assertPost(
                client, "/groups/1/sits", form: "profile=1&startsAt=2026-11-17T07%3A00", named: "group-schedule-past")
            try await assertPost(
                client, "/groups/1/sits", form: "profile=1&startsAt=2026-11-18T19%3A00&weekly=on",
                named: "group-schedule")
            try await assertPage(client, "/groups/1/sits/1", named: "group-sit")
            try await assertPage(client, "/groups/2", named: "group-not-found")
        }
    }
}
