import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import Synchronization
import Testing

@testable import SanghaWeb

/// Accounts and sign-in sessions through the routes: every rule of signing up, in and out,
/// settings, deleting, and who may see what.
@Suite("People routes")
struct PeopleRoutesTests {
    /// A clock that stands still unless the test moves it.
    final class TestClock: Sendable {
        let date: Mutex<Date>
        init(_ date: Date = Date(timeIntervalSince1970: 1_795_000_000)) { self.date = Mutex(date) }
        func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
        var now: Date { date.withLock { $0 } }
    }

    /// The people of `data` (a database of its own when nil), or `people` of the test's own, on a
    /// `TestClock`: it stands still unless a test moves it, so the rules about time (sessions
    /// ending, sign-in attempts counted) are tested at exact times.
    static func dependencies(
        data: SQLitePersonalData? = nil,
        people: (any PeopleRepository)? = nil,
        friendTokens: FriendTokenPolicy = FriendTokenPolicy(.pasted),
        clock: TestClock = TestClock()
    ) throws -> Dependencies {
        try TestDependencies.make(people: people, data: data, friendTokens: friendTokens, now: { clock.now })
    }

    static let password = TestDependencies.password.replacingOccurrences(of: " ", with: "+")

    @Test("Signed out: a GET goes to /sign-in?next=PATH, a post is a 401 page with a link, JSON a 401 body")
    func signedOut() async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/sign-in")
            }
            try await client.execute(uri: "/profiles/1?x=1", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/sign-in?next=/profiles/1?x%3D1")
            }
            // A 401 page with a link to sign in.
            try await client.post("/profiles", form: "name=Evening") { assertResponse($0, named: "post") }
            // "Sign in to continue", as JSON.
            try await client.execute(uri: "/history", method: .get, headers: [.accept: "application/json"]) {
                assertResponse($0, named: "json")
            }
            for open in ["/sign-in", "/sign-up", "/health"] {
                try await client.execute(uri: open, method: .get) { response in
                    #expect(response.status == .ok, "\(open)")
                }
            }
        }
    }

    @Test(
        "Sign-up refuses a short, a common or a missing password, a bad or taken username; the password never comes back",
        arguments: [
            ("name=Ada&username=ada&password=short", "A password is at least 10 characters."),
            ("name=Ada&username=ada&password=qwertyuiop", "This password is among the most common ones."),
            ("name=Ada&username=ada&password=Password123", "This password is among the most common ones."),
            ("name=Ada&username=ada", "A password is at least 10 characters."),
            ("name=Ada&username=a&password=\(password)", "A username is 3 to 30 letters"),
            ("name=Ada&username=ada+lovelace&password=\(password)", "A username is 3 to 30 letters"),
            ("name=&username=ada&password=\(password)", "Enter your name."),
            ("name=Grace&username=ADA&password=\(password)", "This username is taken."),
            ("name=Grace&username=gracehopper1&password=GraceHopper1", "A password cannot be your username."),
            ("name=Gr%00ace&username=grace&password=\(password)", "A name cannot contain control characters."),
        ])
    func signUpRefusals(form: String, message: String) async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            _ = try await client.signedUp(username: "ada")
            // `message` by its field; what was typed kept, the password never.
            try await client.post("/sign-up", form: form) { response in
                assertResponse(response, named: Self.slug(form))
                #expect(Self.sessionCookie(response) == nil)
            }
        }
    }

    /// A snapshot's name for `text`: its letters and digits, the rest as `-`.
    static func slug(_ text: String) -> String {
        text.lowercased().replacing(/[^a-z0-9]+/, with: "-").trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }

    static func sessionCookie(_ response: TestResponse) -> String? {
        response.headers[values: .setCookie].first { $0.hasPrefix("sangha_session=") }
    }

    @Test("Sign-up signs in at once: a 256-bit id in an HttpOnly, SameSite=Lax cookie, kept only as a digest")
    func signUp() async throws {
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        let clock = TestClock()
        try await withApp(dependencies: Self.dependencies(data: data, clock: clock)) { client in
            try await client.post("/sign-up", form: "name=Ada+Lovelace&username=Ada&password=\(Self.password)") {
                response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/")
                let cookie = try #require(Self.sessionCookie(response))
                // Not Secure: this deployment has no https public URL.
                #expect(
                    cookieShown(cookie) == "sangha_session=SESSION; HttpOnly; Max-Age=31536000; Path=/; SameSite=Lax")
                let id = try #require(cookie.split(separator: ";").first?.split(separator: "=").last)
                #expect(id.count == 64 && id.allSatisfy(\.isHexDigit))
                // The repository knows the session by the id's digest, not the id.
                #expect(try await data.signInSessionCount() == 1)
                #expect(try await people.person(session: String(id), at: clock.now) == nil)
            }
            let stored = try #require(try await people.credentials(username: "ada"))
            // The digest is SHA-256, hex: a session kept under the digest of a known id (as
            // Python's hashlib computes it) signs that id's cookie in.
            let id = String(repeating: "0123456789abcdef", count: 4)
            try await people.startSession(
                key: "a8ae6e6ee929abea3afcfc5258c8ccd6f85273e0d4626d26c7279f3250f77c8e", of: stored.person.id,
                at: clock.now)
            try await client.execute(uri: "/me", method: .get, headers: [.cookie: "sangha_session=\(id)"]) { response in
                #expect(response.status == .ok)
            }
            #expect(stored.person.name == "Ada Lovelace")
            #expect(stored.passwordHash.hasPrefix("$2"))
            #expect(!stored.passwordHash.contains("correct"))
        }
    }

    @Test("Sign-in: one message for either mistake; 429 after five failures within 15 minutes; then again")
    func signInFailures() async throws {
        let clock = TestClock()
        try await withApp(dependencies: Self.dependencies(clock: clock)) { client in
            _ = try await client.signedUp(username: "ada")
            // "Wrong username or password." for either mistake.
            try await client.post("/sign-in", form: "username=nobody&password=\(Self.password)") {
                assertResponse($0, named: "no-such-username")
            }
            for _ in 1...5 {
                try await client.post("/sign-in", form: "username=ada&password=wrong+password") {
                    assertResponse($0, named: "wrong-password")
                }
                clock.advance(60)
            }
            // The right password too: the username is refused for now ("Try again in 10 minutes.").
            try await client.post("/sign-in", form: "username=ADA&password=\(Self.password)") {
                assertResponse($0, named: "too-many")
            }
            clock.advance(10 * 60 + 1)
            try await client.post("/sign-in", form: "username=ada&password=\(Self.password)") { response in
                #expect(response.status == .seeOther)
            }
        }
    }

    @Test("A name that cannot be a username is wrong at once: no hash, and no count against anyone")
    func impossibleUsername() async throws {
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        try await withApp(dependencies: Self.dependencies(data: data)) { client in
            for _ in 1...6 {
                try await client.post("/sign-in", form: "username=no+such+name!&password=\(Self.password)") {
                    assertResponse($0, named: "wrong")
                }
            }
            #expect(try await people.failures(of: "no such name!", since: .distantPast).isEmpty)
        }
    }

    @Test("The database out of reach: pages of someone signed in and signing in say so (503); /health answers")
    func databaseDown() async throws {
        let data = try SQLitePersonalData.inMemory()
        let down = Fault()
        let people = Breakable(data.people as any PeopleRepository, fault: down)
        try await withApp(dependencies: Self.dependencies(data: data, people: people)) { client in
            let ada = try await client.signedUp(username: "ada")
            down.fail(.unreachable)
            // 503, "The database is not reachable. Try again in a moment.", on both.
            try await ada.execute(uri: "/profiles", method: .get) { assertResponse($0, named: "page") }
            try await client.post("/sign-in", form: "username=ada&password=\(Self.password)") {
                assertResponse($0, named: "sign-in")
            }
            try await ada.execute(uri: "/health", method: .get) { response in #expect(response.status == .ok) }
            down.fail(nil)
            try await ada.execute(uri: "/profiles", method: .get) { response in #expect(response.status == .ok) }
        }
    }

    @Test("Signing out without a session, or with one already ended, goes to the sign-in page")
    func signOutSignedOut() async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            try await client.post("/sign-out", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/sign-in")
            }
            let ada = try await client.signedUp(username: "ada")
            try await ada.post("/sign-out", form: "") { response in
                #expect(response.status == .seeOther)
                // The HTTP cache only: "storage" would delete the sits waiting in IndexedDB.
                #expect(response.headers[values: HTTPField.Name("Clear-Site-Data")!] == [#""cache""#])
            }
            try await ada.post("/sign-out", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/sign-in")
            }
        }
    }

    /// The embedded service's lists as the routes reach them: what was claimed and deleted.
    final class RecordingLists: EmbeddedFriendLists {
        let claimed = Mutex<[String]>([])
        let deleted = Mutex<[String]>([])
        func claimUnowned(for token: String) async { claimed.withLock { $0.append(token) } }
        func delete(token: String) async { deleted.withLock { $0.append(token) } }
    }

    @Test(
        "With the embedded service each new person gets a token; the first takes the list kept before people; a deleted account's list goes"
    )
    func issuedTokens() async throws {
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        let lists = RecordingLists()
        let friendTokens = FriendTokenPolicy(.issued, embeddedLists: lists)
        try await withApp(dependencies: Self.dependencies(data: data, friendTokens: friendTokens)) { client in
            _ = try await client.signedUp(username: "ada")
            let signedIn = try await client.signedUp(username: "grace")
            let ada = try #require(try await people.credentials(username: "ada")?.person.friendServiceToken)
            let grace = try #require(try await people.credentials(username: "grace")?.person.friendServiceToken)
            #expect(ada.count == 64 && grace.count == 64 && ada != grace)
            // Every sign-up asks; the store moves the unowned list only once (it is empty after).
            #expect(lists.claimed.withLock { $0 } == [ada, grace])
            try await signedIn.post("/settings/delete", form: "password=\(Self.password)") { response in
                #expect(response.status == .seeOther)
            }
            #expect(lists.deleted.withLock { $0 } == [grace])
        }
    }

    @Test(
        "Sign-in goes to next when it is a local path, else home",
        arguments: [
            ("/profiles/1", "/profiles/1"), ("//evil.example", "/"), ("http://evil.example", "/"),
            ("/\\evil.example", "/"), ("https:evil.example", "/"), ("", "/"), ("/history?page=2", "/history?page=2"),
        ])
    func next(next: String, location: String) async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            _ = try await client.signedUp(username: "ada")
            let encoded = next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            try await client.post("/sign-in", form: "username=ada&password=\(Self.password)&next=\(encoded)") {
                response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == location)
            }
        }
    }

    @Test("Signing in makes a new session (a planted one is ended); signing out ends it")
    func renewAndSignOut() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withApp(dependencies: Self.dependencies(data: data)) { client in
            let first = try await client.signedUp(username: "ada")
            #expect(try await data.signInSessionCount() == 1)
            // Signing in again from the same browser: another id, the old one gone.
            let second = try await first.post("/sign-in", form: "username=ada&password=\(Self.password)") {
                response in
                #expect(response.status == .seeOther)
                return try #require(Self.sessionCookie(response)).split(separator: ";")[0]
            }
            #expect(String(second) != first.sessionCookie)
            #expect(try await data.signInSessionCount() == 1)
            try await first.execute(uri: "/", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[values: .setCookie].contains { $0.hasPrefix("sangha_session=;") })
            }
            let signedIn = SignedInClient(base: client, sessionCookie: String(second))
            // Home, Ada's, with Sign out.
            try await signedIn.execute(uri: "/", method: .get) { assertResponse($0, named: "home") }
            try await signedIn.post("/sign-out", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/sign-in")
                #expect(response.headers[values: .setCookie].contains { $0.hasPrefix("sangha_session=;") })
            }
            #expect(try await data.signInSessionCount() == 0)
            try await signedIn.execute(uri: "/", method: .get) { response in
                #expect(response.status == .seeOther)
            }
        }
    }

    @Test("A session unused for 30 days has ended; used, it lasts")
    func expiry() async throws {
        let clock = TestClock()
        try await withApp(dependencies: Self.dependencies(clock: clock)) { client in
            let signedIn = try await client.signedUp()
            clock.advance(29 * 86_400)
            try await signedIn.execute(uri: "/", method: .get) { response in #expect(response.status == .ok) }
            clock.advance(29 * 86_400)
            try await signedIn.execute(uri: "/", method: .get) { response in #expect(response.status == .ok) }
            clock.advance(30 * 86_400)
            try await signedIn.execute(uri: "/", method: .get) { response in
                #expect(response.status == .seeOther)
            }
        }
    }

    @Test("Another person's profile is 404 like a missing one; their list is not shown")
    func isolation() async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            let ada = try await client.signedUp(username: "ada")
            try await ada.post("/profiles", form: "name=Ada%27s+morning") { response in
                #expect(response.headers[.location] == "/profiles/1")
            }
            let grace = try await client.signedUp(username: "grace", name: "Grace Hopper")
            for uri in ["/profiles/1", "/profiles/1/sit"] {
                try await grace.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                }
            }
            try await grace.post("/profiles/1", form: "version=1&name=Taken&main.duration=10") { response in
                #expect(response.status == .notFound)
            }
            // Grace's own list, empty.
            try await grace.execute(uri: "/profiles", method: .get) { assertResponse($0, named: "graces-profiles") }
            // Deleting it answers as for a missing profile (back to the list), and deletes nothing.
            try await grace.post("/profiles/1/delete", form: "") { response in
                #expect(response.status == .seeOther)
            }
            try await ada.execute(uri: "/profiles/1", method: .get) { assertResponse($0, named: "adas-profile") }
        }
    }

    @Test("Settings: name and About saved; a new password needs the current one; then it signs in")
    func settings() async throws {
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        try await withApp(dependencies: Self.dependencies(data: data)) { client in
            let ada = try await client.signedUp()
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings") }
            try await ada.post("/settings", form: "name=Ada+King&about=Counts+breaths.") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/settings")
            }
            #expect(try await people.credentials(id: 1)?.person.about == "Counts breaths.")
            #expect(try await people.credentials(id: 1)?.person.name == "Ada King")
            try await ada.post("/settings", form: "name=Ada&newPassword=another+long+phrase") {
                assertResponse($0, named: "no-current-password")
            }
            try await ada.post(
                "/settings", form: "name=Ada&currentPassword=not+it+at+all&newPassword=another+long+phrase"
            ) { assertResponse($0, named: "wrong-current-password") }
            try await ada.post(
                "/settings",
                form:
                    "name=Ada&currentPassword=\(Self.password)&newPassword=another+long+phrase&friendServiceToken=tok-12345678"
            ) { response in
                #expect(response.status == .seeOther)
            }
            // "Yours ends in …5678.": the token itself is not shown.
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-token") }
            try await client.post("/sign-in", form: "username=ada&password=another+long+phrase") { response in
                #expect(response.status == .seeOther)
            }
        }
    }

    @Test("A new password ends every other session of the person, on the spot; this browser stays signed in")
    func newPasswordSignsOutElsewhere() async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            let here = try await client.signedUp()
            let elsewhere = try await client.post("/sign-in", form: "username=ada&password=\(Self.password)") {
                SignedInClient(base: client, sessionCookie: try #require(SignedInClient.sessionCookie(in: $0)))
            }
            try await elsewhere.execute(uri: "/settings", method: .get) { #expect($0.status == .ok) }
            try await here.post(
                "/settings",
                form: "name=Ada&currentPassword=\(Self.password)&newPassword=another+long+phrase"
            ) { response in
                #expect(response.status == .seeOther)
                let cookie = try #require(
                    response.headers[values: .setCookie].first { $0.hasPrefix(FlashCookie.name + "=") })
                let value = cookie.dropFirst(FlashCookie.name.count + 1).prefix { $0 != ";" }
                let signed = try #require(TestDependencies.signer.verified(String(value), for: "flash"))
                #expect(FlashCookie.decode(signed)?.message == SettingsViewModel.signedOutElsewhere)
            }
            try await elsewhere.execute(uri: "/settings", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location]?.hasPrefix("/sign-in") == true)
            }
            try await here.execute(uri: "/settings", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test("Deleting the account asks for the password, then removes the person and their sessions")
    func deleteAccount() async throws {
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        try await withApp(dependencies: Self.dependencies(data: data)) { client in
            let ada = try await client.signedUp()
            try await ada.post("/settings/delete", form: "password=wrong+password") {
                assertResponse($0, named: "wrong-password")
            }
            try await ada.post("/settings/delete", form: "password=\(Self.password)") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/sign-up")
            }
            #expect(try await people.credentials(username: "ada") == nil)
            #expect(try await data.signInSessionCount() == 0)
            try await ada.execute(uri: "/", method: .get) { response in #expect(response.status == .seeOther) }
        }
    }

    @Test("/me: the person's page, as HTML and JSON")
    func me() async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            let ada = try await client.signedUp()
            // "Ada Lovelace", "AL".
            try await ada.execute(uri: "/me", method: .get) { assertResponse($0, named: "html") }
            try await ada.execute(uri: "/me", method: .get, headers: [.accept: "application/json"]) {
                assertResponse($0, named: "json")
            }
        }
    }

    @Test("--public-url https: __Host- cookies, Strict-Transport-Security, posts only from that origin")
    func publicURL() async throws {
        let configuration = AppConfiguration(publicURL: URL(string: "https://sangha.example"))
        // The origin as a browser sends it: no port when it is the scheme's own.
        #expect(
            AppConfiguration(publicURL: URL(string: "https://Sangha.example:443/")).publicOrigin
                == "https://sangha.example")
        #expect(
            AppConfiguration(publicURL: URL(string: "https://sangha.example:8443")).publicOrigin
                == "https://sangha.example:8443")
        #expect(
            AppConfiguration(publicURL: URL(string: "http://sangha.example:80")).publicOrigin == "http://sangha.example"
        )
        try await withApp(configuration: configuration, dependencies: Self.dependencies()) { client in
            try await client.execute(uri: "/sign-in", method: .get) { response in
                #expect(response.headers[.strictTransportSecurity] == "max-age=31536000")
                // The form token's cookie: __Host-, Secure, Path=/ and no Domain.
                #expect(
                    response.headers[values: .setCookie].map(cookieShown) == [
                        "__Host-sangha_csrf=\(FormPost.token); HttpOnly; Path=/; SameSite=Lax; Secure"
                    ])
            }
            // The form token's cookie as the browser sends it back: with its prefix.
            let prefixed = "__Host-sangha_csrf=\(FormPost.token)"
            var headers = FormPost.headers()
            headers[.cookie] = prefixed
            headers[.origin] = "http://localhost:8080"
            try await client.execute(
                uri: "/sign-up", method: .post, headers: headers,
                body: FormPost.body("name=Ada&username=ada&password=\(Self.password)")
            ) { response in
                #expect(response.status == .forbidden)
            }
            headers[.origin] = "https://sangha.example"
            // A cookie without the prefix could have come from a sibling subdomain or plain HTTP:
            // it is not read, so the form token has no cookie to match.
            headers[.cookie] = "sangha_csrf=\(FormPost.token)"
            try await client.execute(
                uri: "/sign-up", method: .post, headers: headers,
                body: FormPost.body("name=Ada&username=ada&password=\(Self.password)")
            ) { response in
                #expect(response.status == .forbidden)
            }
            headers[.cookie] = prefixed
            let session = try await client.execute(
                uri: "/sign-up", method: .post, headers: headers,
                body: FormPost.body("name=Ada&username=ada&password=\(Self.password)")
            ) { response in
                #expect(response.status == .seeOther)
                let cookie = response.headers[values: .setCookie].first { $0.hasPrefix("__Host-sangha_session=") }
                #expect(
                    cookie.map(cookieShown)
                        == "__Host-sangha_session=SESSION; HttpOnly; Max-Age=31536000; Path=/; SameSite=Lax; Secure")
                return try #require(cookie?.split(separator: ";").first.map(String.init))
            }
            try await client.execute(uri: "/profiles", method: .get, headers: [.cookie: session]) { response in
                #expect(response.status == .ok, "the prefixed session cookie signs in")
            }
            let planted = String(session.dropFirst("__Host-".count))
            try await client.execute(uri: "/profiles", method: .get, headers: [.cookie: planted]) { response in
                #expect(response.status == .seeOther, "the same session without the prefix is not read")
            }
        }
    }
}
