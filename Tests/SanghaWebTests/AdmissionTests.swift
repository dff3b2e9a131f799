import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SanghaCore
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// Running Sangha for a group: who may sign up, the administrator's page, and the limits on
/// guessing that never lock the owner out.
@Suite("Who comes in: sign-up, invitations, reset links, guessing")
struct AdmissionTests {
    static let password = TestDependencies.password.replacingOccurrences(of: " ", with: "+")
    static let invite = AppConfiguration(signUp: .invite, addressLimit: 0)

    /// The app on a clock that stands still at Tuesday 2026-11-24, 18:00 UTC, so the pages a
    /// test compares whole (who signed up when, a link's expiry) read the same on every run.
    static func dependencies(
        data: SQLitePersonalData? = nil, clock: PeopleRoutesTests.TestClock = .init(GroupsRoutesTests.tuesday)
    ) throws -> Dependencies {
        try TestDependencies.make(data: data, now: { clock.now })
    }

    static func signUpForm(_ username: String, invitation: String? = nil) -> String {
        "name=\(username.capitalized)&username=\(username)&password=\(password)"
            + (invitation.map { "&invitation=\($0)" } ?? "")
    }

    /// The link a page shows once: `/sign-up?invitation=…` or `/reset-password?token=…`.
    static func link(_ path: String, in response: TestResponse) throws -> String {
        let body = String(buffer: response.body)
        let start = try #require(body.range(of: path))
        return String(body[start.upperBound...].prefix { $0 != "\"" })
    }

    @Test("Invite-only by default: the first account administers, the next needs an invitation, which works once")
    func invitations() async throws {
        #expect(AppConfiguration().signUp == .invite)
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        try await withApp(configuration: Self.invite, dependencies: Self.dependencies(data: data)) { client in
            let ada = try await client.signedUp(username: "ada")
            // Her navigation has Admin.
            try await ada.execute(uri: "/", method: .get) { assertResponse($0, named: "home-administrator") }
            // Without an invitation: the page says so (403, no form), the post creates no one.
            try await client.execute(uri: "/sign-up", method: .get) { assertResponse($0, named: "sign-up-uninvited") }
            // The sign-in page offers no "Create account".
            try await client.execute(uri: "/sign-in", method: .get) { assertResponse($0, named: "sign-in") }
            try await client.post("/sign-up", form: Self.signUpForm("bob")) { #expect($0.status == .forbidden) }
            #expect(try await people.credentials(username: "bob") == nil)
            // The administrator invites: a link shown once ("It is shown only now.").
            let token = try await ada.post("/admin/invitations", form: "") { response in
                assertResponse(response, named: "invitation")
                return try Self.link("/sign-up?invitation=", in: response)
            }
            #expect(token.count == 64)
            // The form carries the invitation (shown as TOKEN).
            try await client.execute(uri: "/sign-up?invitation=\(token)", method: .get) { response in
                assertResponse(response, named: "sign-up-invited")
                #expect(
                    String(buffer: response.body).firstMatch(of: /name="invitation" value="([0-9a-f]{64})"/)?.1
                        == Substring(token))
            }
            let bob = try await client.post("/sign-up", form: Self.signUpForm("bob", invitation: token)) { response in
                #expect(response.status == .seeOther)
                return try #require(
                    response.headers[values: .setCookie].first { $0.hasPrefix("sangha_session=") })
            }
            // Invited, Bob is signed in: his session opens his pages.
            let session = String(bob.prefix { $0 != ";" })
            try await client.execute(uri: "/profiles", method: .get, headers: [.cookie: session]) { response in
                #expect(response.status == .ok)
            }
            #expect(try await people.credentials(username: "bob")?.person.isAdministrator == false)
            // Used once: "Sign-up needs an invitation." again.
            try await client.post("/sign-up", form: Self.signUpForm("carol", invitation: token)) {
                assertResponse($0, named: "invitation-used")
            }
        }
    }

    @Test("Closed: no sign-up, no invitation; open: the sign-in page offers it")
    func closedAndOpen() async throws {
        let closed = AppConfiguration(signUp: .closed, addressLimit: 0)
        try await withApp(configuration: closed, dependencies: Self.dependencies()) { client in
            let ada = try await client.signedUp(username: "ada")  // the first account, always
            // "Sign-up is closed.", 403.
            try await client.execute(uri: "/sign-up", method: .get) { assertResponse($0, named: "sign-up-closed") }
            try await client.post("/sign-up", form: Self.signUpForm("bob")) { #expect($0.status == .forbidden) }
            // "Sign-up is closed", and no button to invite.
            try await ada.execute(uri: "/admin", method: .get) { assertResponse($0, named: "admin-closed") }
            try await ada.post("/admin/invitations", form: "") { #expect($0.status == .conflict) }
        }
        // Open: "Create account".
        try await withApp(configuration: .testing, dependencies: Self.dependencies()) { client in
            try await client.execute(uri: "/sign-in", method: .get) { assertResponse($0, named: "sign-in-open") }
        }
    }

    @Test("/admin is the administrators': anyone else gets 404, for the page and every action")
    func onlyAdministrators() async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            let ada = try await client.signedUp(username: "ada")
            let bob = try await client.signedUp(username: "bob", name: "Bob")
            // No Admin in his navigation.
            try await bob.execute(uri: "/", method: .get) { assertResponse($0, named: "home-not-administrator") }
            try await bob.execute(uri: "/admin", method: .get) { #expect($0.status == .notFound) }
            for action in ["invitations", "people/1/disable", "people/1/reset-password", "people/2/administrator"] {
                try await bob.post("/admin/\(action)", form: "") { #expect($0.status == .notFound) }
            }
            try await client.execute(uri: "/admin", method: .get) { #expect($0.status == .seeOther) }
            // Bob, @bob, "1 open sign-in"; a button disables him, none disables oneself.
            try await ada.execute(uri: "/admin", method: .get) { assertResponse($0, named: "admin") }
            try await ada.post("/admin/people/1/disable", form: "") { response in
                #expect(response.status == .seeOther)
            }
            try await ada.post("/admin/people/2/administrator", form: "") { #expect($0.status == .seeOther) }
            try await bob.execute(uri: "/admin", method: .get) { #expect($0.status == .ok) }
            try await ada.post("/admin/people/99/disable", form: "") { #expect($0.status == .notFound) }
        }
    }

    @Test(
        "The only administrator cannot delete their account while others have one, nor be disabled from the admin page; once another administers, they can"
    )
    func lastAdministrator() async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            let ada = try await client.signedUp(username: "ada")
            let bob = try await client.signedUp(username: "bob", name: "Bob")
            // 422: "You are the only administrator…".
            try await ada.post("/settings/delete", form: "password=\(Self.password)") {
                assertResponse($0, named: "only-administrator")
            }
            try await ada.execute(uri: "/admin", method: .get) { #expect($0.status == .ok) }
            try await ada.post("/admin/people/2/administrator", form: "") { #expect($0.status == .seeOther) }
            try await ada.post("/settings/delete", form: "password=\(Self.password)") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/sign-up")
            }
            // Ada is gone from it.
            try await bob.execute(uri: "/admin", method: .get) { assertResponse($0, named: "admin-without-ada") }
        }
    }

    @Test(
        "Each administrator's rows on /admin carry that administrator's own form token, though the rows are kept with their rendering"
    )
    func keptRowsCarryTheReadersToken() async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            let ada = try await client.signedUp(username: "ada")
            let bob = try await client.signedUp(username: "bob", name: "Bob")
            // Carol's row is the same row to both (neither reads their own).
            _ = try await client.signedUp(username: "carol", name: "Carol")
            try await ada.post("/admin/people/2/administrator", form: "") { #expect($0.status == .seeOther) }
            var seen: [String: String] = [:]
            for (name, reader) in [("ada", ada), ("bob", bob), ("ada", ada), ("bob", bob)] {
                let tokens = try await reader.execute(uri: "/admin", method: .get) { response in
                    String(buffer: response.body).matches(of: /name="_csrf" value="([^"]*)"/).map { String($0.1) }
                }
                // The page's own forms (invite, sign out) and each row's buttons: one token.
                #expect(tokens.count > 4 && Set(tokens).count == 1, "\(name): \(tokens)")
                #expect(seen[name, default: tokens[0]] == tokens[0])
                seen[name] = tokens.first
            }
            #expect(seen["ada"] != seen["bob"])
        }
    }

    @Test("Disabling signs a person out everywhere and keeps them out; enabling lets them in again")
    func disabling() async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            let ada = try await client.signedUp(username: "ada")
            let bob = try await client.signedUp(username: "bob", name: "Bob")
            // Bob's row as /admin keeps it (`AdminRoutes.keptRows`), then as it must change.
            func bobsButton() async throws -> String? {
                try await ada.execute(uri: "/admin", method: .get) { response in
                    let body = String(buffer: response.body)
                    return ["enable", "disable"].first { body.contains("/admin/people/2/\($0)\"") }
                }
            }
            #expect(try await bobsButton() == "disable")
            try await ada.post("/admin/people/2/disable", form: "") { response in
                #expect(response.status == .seeOther)
            }
            #expect(try await bobsButton() == "enable", "the kept row is made again from Bob disabled")
            try await bob.execute(uri: "/profiles", method: .get) { #expect($0.status == .seeOther) }
            try await client.post("/sign-in", form: "username=bob&password=wrong+password") { response in
                #expect(response.status == .unauthorized)  // a guess learns nothing
            }
            // 403: "This account is disabled."
            try await client.post("/sign-in", form: "username=bob&password=\(Self.password)") {
                assertResponse($0, named: "disabled")
            }
            try await ada.post("/admin/people/2/enable", form: "") { #expect($0.status == .seeOther) }
            #expect(try await bobsButton() == "disable")
            try await client.post("/sign-in", form: "username=bob&password=\(Self.password)") { response in
                #expect(response.status == .seeOther)
            }
        }
    }

    @Test("A reset link sets a new password once, within 24 hours, and ends every session")
    func passwordReset() async throws {
        let clock = PeopleRoutesTests.TestClock(GroupsRoutesTests.tuesday)
        try await withApp(dependencies: Self.dependencies(clock: clock)) { client in
            let ada = try await client.signedUp(username: "ada")
            let bob = try await client.signedUp(username: "bob", name: "Bob")
            // "Password reset link for Bob", shown once, valid 24 hours.
            let token = try await ada.post("/admin/people/2/reset-password", form: "") { response in
                assertResponse(response, named: "reset-link")
                return try Self.link("/reset-password?token=", in: response)
            }
            // "Bob, choose the password…".
            try await client.execute(uri: "/reset-password?token=\(token)", method: .get) {
                assertResponse($0, named: "reset-form")
            }
            try await client.post("/reset-password", form: "token=\(token)&newPassword=bob") { response in
                #expect(response.status == .unprocessableContent)
            }
            try await client.post("/reset-password", form: "token=\(token)&newPassword=a+new+long+phrase") {
                response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/sign-in")
            }
            try await bob.execute(uri: "/profiles", method: .get) { #expect($0.status == .seeOther) }
            try await client.post("/sign-in", form: "username=bob&password=a+new+long+phrase") { response in
                #expect(response.status == .seeOther)
            }
            // 404: "…expired or was used…".
            try await client.execute(uri: "/reset-password?token=\(token)", method: .get) {
                assertResponse($0, named: "reset-used")
            }
            let late = try await ada.post("/admin/people/2/reset-password", form: "") {
                try Self.link("/reset-password?token=", in: $0)
            }
            clock.advance(24 * 3600)
            try await client.execute(uri: "/reset-password?token=\(late)", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("Five wrong guesses lock a stranger out, never the owner's browser, which has its device cookie")
    func ownerNeverLockedOut() async throws {
        try await withApp(dependencies: Self.dependencies()) { client in
            let device = try await client.post("/sign-up", form: Self.signUpForm("ada")) { response in
                try #require(
                    response.headers[values: .setCookie].first { $0.hasPrefix("\(DeviceCookie.name)=") }?
                        .split(separator: ";").first.map(String.init))
            }
            for _ in 0..<5 {
                try await client.post("/sign-in", form: "username=ada&password=a+wrong+guess") { response in
                    #expect(response.status == .unauthorized)
                }
            }
            // 429: "Too many attempts. Try again in 15 minutes."
            try await client.post("/sign-in", form: "username=ada&password=\(Self.password)") {
                assertResponse($0, named: "too-many")
            }
            try await client.post("/sign-in", form: "username=ada&password=\(Self.password)", cookies: [device]) {
                response in
                #expect(response.status == .seeOther)
            }
            // A made-up device cookie is no one's.
            try await client.post(
                "/sign-in", form: "username=ada&password=\(Self.password)",
                cookies: ["\(DeviceCookie.name)=ada.0123456789abcdef.00"]
            ) { #expect($0.status == .tooManyRequests) }
        }
    }

    /// A hasher whose queue is always full.
    struct BusyHasher: PasswordHashing {
        func hash(_ password: String, lane: HashingLane) async throws -> String { throw PasswordHashingError.busy }
        func verify(_ password: String, against hash: String, lane: HashingLane) async throws -> Bool {
            throw PasswordHashingError.busy
        }
        func verifyNoOne(_ password: String, lane: HashingLane) async throws { throw PasswordHashingError.busy }
    }

    @Test("A full hashing queue answers 503 at once and counts nothing: a flood it turns away locks no one out")
    func busyCountsNothing() async throws {
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        _ = try await people.create(Person(username: "ada", name: "Ada", createdAt: Date()), passwordHash: "-")
        var dependencies = try TestDependencies.make(data: data)
        dependencies.passwords = BusyHasher()
        try await withApp(dependencies: dependencies) { client in
            for _ in 0..<(SignInSession.failureLimit + 1) {
                // 503: "Sangha is busy. Try again in a moment."
                try await client.post("/sign-in", form: "username=ada&password=a+wrong+guess") {
                    assertResponse($0, named: "busy")
                }
            }
        }
        #expect(try await people.failures(of: "ada", since: .distantPast).isEmpty)
    }

    @Test("Sign-ups and failed sign-ins are limited per address; the owner's device is not")
    func addressLimit() async throws {
        let configuration = AppConfiguration(port: 0, signUp: .open, addressLimit: 3)
        try await withApp(configuration: configuration, testing: .live) { client in
            let device = try await client.post("/sign-up", form: Self.signUpForm("ada")) { response in
                #expect(response.status == .seeOther)
                return try #require(
                    response.headers[values: .setCookie].first { $0.hasPrefix("\(DeviceCookie.name)=") }?
                        .split(separator: ";").first.map(String.init))
            }
            try await client.post("/sign-up", form: Self.signUpForm("bob")) { #expect($0.status == .seeOther) }
            try await client.post("/sign-in", form: "username=carol&password=a+wrong+guess") { response in
                #expect(response.status == .unauthorized)
            }
            for username in ["dan", "eve"] {
                try await client.post("/sign-up", form: Self.signUpForm(username)) { response in
                    #expect(response.status == .tooManyRequests)
                    // The window began a moment ago, on the real clock: 15 minutes to wait (14 on a
                    // machine slow enough to take a minute over this test).
                    let shown = alerts(in: String(buffer: response.body)).first?.last
                    #expect(
                        shown == Requester.tooManyAttempts(minutes: 15)
                            || shown == Requester.tooManyAttempts(minutes: 14))
                }
            }
            try await client.post("/sign-in", form: "username=bob&password=\(Self.password)") { response in
                #expect(response.status == .tooManyRequests)
            }
            try await client.post("/sign-in", form: "username=ada&password=\(Self.password)", cookies: [device]) {
                response in
                #expect(response.status == .seeOther)
            }
        }
    }

    @Test("A planted CSRF cookie gets an attacker nothing: the form token is bound to the session")
    func plantedToken() async throws {
        try await withSignedInApp { client in
            // The attacker's own nonce, and the token a page gave them for it while signed out.
            let nonce = "attacker-nonce-0123456789"
            let theirs = TestDependencies.signer.formToken(nonce: nonce, session: nil)
            try await client.execute(
                uri: "/profiles", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "sangha_csrf=\(nonce)"],
                body: ByteBuffer(string: "name=Planted&_csrf=\(theirs)")
            ) { #expect($0.status == .forbidden) }
            // No profile: nothing Planted.
            try await client.execute(uri: "/profiles", method: .get) { assertResponse($0, named: "profiles") }
        }
    }

    @Test("A flash cookie without its signature is not shown")
    func unsignedFlash() async throws {
        try await withSignedInApp { client in
            let forged = FlashCookie.value(for: .success("Send your password to evil.example"))
            // The page with no flash: nothing of evil.example.
            try await client.execute(uri: "/profiles", method: .get, headers: [.cookie: "sangha_flash=\(forged)"]) {
                assertResponse($0, named: "profiles")
            }
        }
    }

    @Test("Behind a trusted proxy the client is the last address it names that is not a proxy")
    func clientAddress() throws {
        let proxy = try SocketAddress(ipAddress: "10.0.0.2", port: 1)
        func request(_ forwarded: String?) -> Request {
            var head = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/")
            if let forwarded { head.headerFields[ClientAddress.forwardedFor] = forwarded }
            return Request(head: head, body: .init(buffer: ByteBuffer()))
        }
        let trusted: Set = ["10.0.0.2", "10.0.0.3"]
        #expect(ClientAddress.of(request("203.0.113.9"), peer: proxy, trustedProxies: trusted) == "203.0.113.9")
        #expect(
            ClientAddress.of(request("1.1.1.1, 203.0.113.9, 10.0.0.3"), peer: proxy, trustedProxies: trusted)
                == "203.0.113.9")
        #expect(ClientAddress.of(request("203.0.113.9"), peer: proxy, trustedProxies: []) == "10.0.0.2")
        #expect(ClientAddress.of(request(nil), peer: proxy, trustedProxies: trusted) == "10.0.0.2")
        #expect(ClientAddress.of(request("not an address"), peer: proxy, trustedProxies: trusted) == "10.0.0.2")
    }
}
