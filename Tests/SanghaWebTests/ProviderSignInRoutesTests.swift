import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaOIDC
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// "Sign in with NAME" through the routes, against an OpenID provider on loopback: there and
/// back, who is signed in (and who is not), and every way back that must sign no one in.
@Suite("Signing in with the identity provider, through the routes")
struct ProviderSignInRoutesTests {
    static let name = "Pocket ID"
    static let failed = "Signing in with Pocket ID did not work. Try again."

    /// The app with `provider` as its identity provider, whose calls may take `timeout`: 30 s by
    /// default, a bound for a busy machine (a full parallel run held a provider that answers
    /// past 5 s); the tests of a provider that does not answer give their own.
    static func withApp(
        provider: TestOpenIDProvider, signUp: SignUpMode = .open, passwordSignIn: Bool = true,
        data: SQLitePersonalData? = nil, timeout: Duration = .seconds(30),
        _ test: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var dependencies = try TestDependencies.make(data: data)
        dependencies.identityProvider = OpenIDProvider(
            configuration: .init(
                issuer: URL(string: provider.issuer)!, clientID: TestOpenIDProvider.clientID,
                clientSecret: TestOpenIDProvider.clientSecret, name: name, timeout: timeout))
        let configuration = AppConfiguration(signUp: signUp, passwordSignIn: passwordSignIn, addressLimit: 0)
        try await SanghaWebTests.withApp(
            configuration: configuration, dependencies: dependencies, testing: .router, test)
    }

    /// `sangha_session=…`, when the response signed someone in.
    static func sessionCookie(in response: TestResponse) -> String? {
        SignedInClient.sessionCookie(in: response)
    }

    /// What a start left: the provider's authorization URL's query, and the attempt cookie.
    struct Started {
        var query: [String: String]
        var cookie: String

        /// Read from the 303 that sends the browser to the provider.
        init(_ response: TestResponse) throws {
            #expect(response.status == .seeOther)
            try self.init(link: try #require(response.headers[.location]), response: response)
        }

        /// Read from a link to the provider, and the response that set the attempt's cookie.
        init(link: String, response: TestResponse) throws {
            let items = URLComponents(string: link)?.queryItems ?? []
            query = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
            let header = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("sangha_oidc=") })
            cookie = String(header.prefix { $0 != ";" })
            // The attempt's own cookie, not just any the response sets.
            #expect(cookieAttributes(header) == ["HttpOnly", "Max-Age=600", "Path=/", "SameSite=Lax"])
        }
    }

    static func start(_ client: any TestClientProtocol, next: String? = nil) async throws -> Started {
        let uri = next.map { "/sign-in/oidc/start?next=\($0)" } ?? "/sign-in/oidc/start"
        return try await client.execute(uri: uri, method: .get) { try Started($0) }
    }

    static let passwordField = "connectPassword=\(TestDependencies.password.replacingOccurrences(of: " ", with: "+"))"

    /// "Connect Pocket ID" with the person's password: Settings again (200) with "Continue to
    /// Pocket ID", a link to the provider's authorization URL, and the attempt's cookie.
    static func connect(_ client: SignedInClient) async throws -> Started {
        try await client.post("/settings/oidc/connect", form: passwordField) { response in
            #expect(response.status == .ok)
            let html = String(buffer: response.body)
            // The provider's section says so, beside the link (a new state in it each run).
            let status = html.firstMatch(of: /<h2 id="provider-heading">Pocket ID<\/h2>\n  <p>([^<]*)<\/p>/)?.1
            #expect(status.map(String.init) == ProviderSectionViewModel.passwordConfirmed(name, words: .english))
            let link = try #require(
                html.firstMatch(of: /<a class="button" href="([^"]*)">Continue to Pocket ID<\/a>/)?.1)
            return try Started(link: String(link).replacingOccurrences(of: "&amp;", with: "&"), response: response)
        }
    }

    /// Comes back from the provider with `code` and `state`, carrying `cookie`.
    static func callback(
        _ client: any TestClientProtocol, code: String, state: String, cookie: String?,
        _ check: (TestResponse) throws -> Void
    ) async throws {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        let response = try await client.execute(
            uri: "/sign-in/oidc?code=\(code)&state=\(state)", method: .get, headers: headers, body: nil)
        try check(response)
    }

    @Test("The sign-in page offers \"Sign in with NAME\", keeping where the person was going")
    func button() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { provider.stop() }
        try await Self.withApp(provider: provider) { client in
            // "Sign in with Pocket ID" to /sign-in/oidc/start?next=/history, and the password form.
            try await client.execute(uri: "/sign-in?next=/history", method: .get) {
                assertResponse($0, named: "sign-in")
            }
        }
        // With --password-sign-in off, the button alone; a password post is refused. Sign-up too
        // offers the button and no password form, and a reset link sets no password.
        let data = try SQLitePersonalData.inMemory()
        let bob = try await data.people.create(
            Person(username: "bob", name: "Bob", createdAt: Date()), passwordHash: "a hash", admission: .anyone,
            at: Date())
        let token = SecretToken.make()
        try await data.people.add(
            OneUseLink(
                key: SecretToken.key(of: token), kind: .passwordReset, personID: bob.id,
                expiresAt: Date().addingTimeInterval(3600)))
        try await Self.withApp(provider: provider, passwordSignIn: false, data: data) { client in
            try await client.execute(uri: "/sign-in", method: .get) {
                assertResponse($0, named: "sign-in-no-passwords")
            }
            try await client.post("/sign-in", form: "username=ada&password=correct+horse+battery") { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/sign-up", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(page.contains(Words.english.signInWithProvider(provider: Self.name)))
                #expect(!page.contains("type=\"password\""))
                #expect(!page.contains("action=\"/sign-up\""))
            }
            let passwordsOff = Words.english.accountPasswordsOff(
                way: Words.english.signInWithProvider(provider: Self.name))
            try await client.execute(uri: "/reset-password?token=\(token)", method: .get) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains(passwordsOff))
                #expect(!String(buffer: response.body).contains("type=\"password\""))
            }
            try await client.post("/reset-password", form: "token=\(token)&newPassword=a+new+long+phrase") {
                #expect($0.status == .forbidden)
            }
        }
        #expect(try await data.people.link(.passwordReset, key: SecretToken.key(of: token), at: Date()) != nil)
    }

    @Test(
        "There and back: a new person gets an account named from the provider, and the same subject signs the same person in again"
    )
    func thereAndBack() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { provider.stop() }
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        try await Self.withApp(provider: provider, data: data) { client in
            for round in 1...2 {
                let started = try await Self.start(client, next: "/history")
                #expect(
                    started.query["redirect_uri"] == "http://localhost/sign-in/oidc"
                        || started.query["redirect_uri"]?.hasSuffix("/sign-in/oidc") == true)
                var grant = provider.grant(
                    subject: "248289761001", nonce: started.query["nonce"], challenge: started.query["code_challenge"])
                grant.name = "Grace Hopper"
                grant.preferredUsername = "grace.hopper"
                provider.prepare(code: "code-\(round)", grant)
                try await Self.callback(
                    client, code: "code-\(round)", state: started.query["state"] ?? "", cookie: started.cookie
                ) { response in
                    #expect(response.status == .seeOther)
                    #expect(response.headers[.location] == "/history")
                    #expect(Self.sessionCookie(in: response) != nil)
                    // The attempt is over: its cookie goes.
                    #expect(
                        response.headers[values: .setCookie].filter { $0.hasPrefix("sangha_oidc=") }.map(cookieShown)
                            == ["sangha_oidc=; HttpOnly; Max-Age=0; Path=/; SameSite=Lax"])
                }
            }
            let overview = try await people.overview(at: Date())
            #expect(overview.count == 1)
            #expect(overview.first?.person.username == "gracehopper")
            #expect(overview.first?.person.name == "Grace Hopper")
        }
    }

    /// Ways back that must sign no one in.
    enum Wrong: String, CaseIterable, CustomTestStringConvertible {
        case otherState, noCookie, refusedAtProvider, codeUsedTwice, otherNonce, otherAudience, expired, strangerKey,
            otherAuthorizedParty, otherHeaderAlgorithm, emptySubject
        var testDescription: String { rawValue }
    }

    @Test("Refused with the sign-in page, 400, and no one signed in", arguments: Wrong.allCases)
    func refused(_ wrong: Wrong) async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { provider.stop() }
        try await Self.withApp(provider: provider) { client in
            let started = try await Self.start(client)
            var grant = provider.grant(
                subject: "s", nonce: started.query["nonce"], challenge: started.query["code_challenge"])
            var state = started.query["state"] ?? ""
            var cookie: String? = started.cookie
            switch wrong {
            case .otherState: state = "forged"
            case .noCookie: cookie = nil
            case .otherNonce: grant.nonce = "another"
            case .otherAudience: grant.audience = ["someone-else"]
            case .expired: grant.expires = Date().addingTimeInterval(-60)
            case .strangerKey: grant.kid = "stranger"
            case .otherAuthorizedParty: grant.authorizedParty = "another-client"
            case .otherHeaderAlgorithm: grant.headerAlgorithm = "RS256"
            case .emptySubject: grant.subject = ""
            case .refusedAtProvider, .codeUsedTwice: break
            }
            provider.prepare(code: "the-code", grant)
            if wrong == .codeUsedTwice {
                try await Self.callback(client, code: "the-code", state: state, cookie: cookie) { response in
                    #expect(response.status == .seeOther)
                }
            }
            if wrong == .refusedAtProvider {
                var headers: HTTPFields = [:]
                headers[.cookie] = started.cookie
                try await client.execute(
                    uri: "/sign-in/oidc?error=access_denied&state=\(state)", method: .get, headers: headers, body: nil
                ) { response in
                    assertResponse(response, named: "refused")
                    #expect(Self.sessionCookie(in: response) == nil)
                }
                return
            }
            // Every way back is the same page: the sign-in page, 400, with why.
            try await Self.callback(client, code: "the-code", state: state, cookie: cookie) { response in
                assertResponse(response, named: "refused")
                #expect(Self.sessionCookie(in: response) == nil)
            }
        }
    }

    @Test(
        "With --sign-up closed a new subject gets \"Sign-up is closed.\" (once someone has an account); a provider that does not answer costs its timeout and says so"
    )
    func closedAndUnreachable() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { provider.stop() }
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        _ = try await people.create(Person(username: "admin", name: "Admin", createdAt: Date()), passwordHash: "x")
        // The default timeout. The 1 s is for the hung provider below: in a full parallel run the
        // provider that answers once took longer than 1 s to do so.
        try await Self.withApp(provider: provider, signUp: .closed, data: data) { client in
            let started = try await Self.start(client)
            provider.prepare(
                code: "c",
                provider.grant(
                    subject: "new", nonce: started.query["nonce"], challenge: started.query["code_challenge"]))
            try await Self.callback(client, code: "c", state: started.query["state"] ?? "", cookie: started.cookie) {
                response in
                assertResponse(response, named: "sign-up-closed")
                #expect(Self.sessionCookie(in: response) == nil)
            }
        }
        // A provider that never answers, from the first call on.
        let hung = try await TestOpenIDProvider.start()
        defer { hung.stop() }
        hung.answer(after: .seconds(60))
        try await Self.withApp(provider: hung, timeout: .seconds(1)) { client in
            let started = ContinuousClock.now
            try await client.execute(uri: "/sign-in/oidc/start", method: .get) {
                assertResponse($0, named: "unreachable")
            }
            // A generous bound on a 1 s timeout: the outcome is what is tested.
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test(
        "Settings: \"Connect NAME\" is a post that asks for the password first (a GET starts nothing, a wrong password is refused by its field and counted), then links a password account to the provider's subject (never one that signs in someone else); \"Disconnect NAME\" ends it"
    )
    func connectAndDisconnect() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { provider.stop() }
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        // Someone else signs in with the subject "taken".
        _ = try await people.create(
            Person(username: "other", name: "Other", createdAt: Date()), passwordHash: "",
            identity: ProviderIdentity(issuer: provider.issuer, subject: "taken"), admission: .anyone, at: Date())
        try await Self.withApp(provider: provider, data: data) { client in
            let ada = try await client.signedUp()
            // "Connect Pocket ID": a form that posts the password, never a link.
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings") }
            // A link another site could make a signed-in browser follow starts nothing.
            try await ada.execute(uri: "/settings/oidc/connect", method: .get) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(!response.headers[values: .setCookie].contains { $0.hasPrefix("sangha_oidc=") })
            }
            // A post without the form token, as another site's form would be: refused.
            try await ada.execute(
                uri: "/settings/oidc/connect", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: Self.passwordField)
            ) { response in
                #expect(response.status == .forbidden)
                #expect(!response.headers[values: .setCookie].contains { $0.hasPrefix("sangha_oidc=") })
            }
            // No password, or a wrong one: refused by the field, nothing started; the wrong one
            // counted as a wrong current password is.
            // "Type your password to connect Pocket ID." and "This is not your password.", by the
            // field; no "Continue to Pocket ID".
            for (form, name) in [("connectPassword=", "no-password"), ("connectPassword=not+my+password", "wrong")] {
                try await ada.post("/settings/oidc/connect", form: form) { response in
                    assertResponse(response, named: "connect-\(name)")
                    #expect(!response.headers[values: .setCookie].contains { $0.hasPrefix("sangha_oidc=") })
                }
            }
            #expect(try await people.failures(of: "ada", since: .distantPast).count == 1)
            for (subject, flash) in [
                ("taken", "This Pocket ID account signs in someone else."), ("ada-sub", "Connected to Pocket ID."),
            ] {
                let started = try await Self.connect(ada)
                provider.prepare(
                    code: subject,
                    provider.grant(
                        subject: subject, nonce: started.query["nonce"], challenge: started.query["code_challenge"]))
                try await Self.callback(
                    ada, code: subject, state: started.query["state"] ?? "", cookie: started.cookie
                ) { response in
                    #expect(response.status == .seeOther)
                    #expect(response.headers[.location] == "/settings")
                    let message = try GroupsRoutesTests.flash(response)
                    #expect(message?.hasPrefix(flash) == true, "\(subject)")
                }
            }
            // The right password cleared the count.
            #expect(try await people.failures(of: "ada", since: .distantPast).isEmpty)
            let adaID = try #require(try await people.credentials(username: "ada")?.person.id)
            #expect(
                try await people.credentials(identity: .init(issuer: provider.issuer, subject: "ada-sub"))?.person.id
                    == adaID)
            #expect(
                try await people.credentials(identity: .init(issuer: provider.issuer, subject: "taken"))?.person
                    .username == "other")
            // "You can sign in with Pocket ID or with your password.", and "Disconnect Pocket ID".
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-connected") }
            try await ada.post("/settings/oidc/disconnect", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/settings")
                let message = try GroupsRoutesTests.flash(response)
                #expect(message == "Disconnected from Pocket ID.")
            }
            #expect(try await people.connectedIssuers(of: adaID) == [])
        }
    }

    @Test(
        "An account the provider alone signs in has no password: Settings deletes it without one, and the password form never signs it in"
    )
    func providerOnlyAccount() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { provider.stop() }
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        try await Self.withApp(provider: provider, data: data) { client in
            let grace = try await Self.signInProviderOnly(client, provider)
            // No password matches an account without one, the empty one least of all.
            for password in ["", "anything+at+all"] {
                try await client.post("/sign-in", form: "username=grace&password=\(password)") { response in
                    #expect(response.status != .seeOther, "\(password)")
                }
            }
            // "You sign in with Pocket ID: your account has no password."; "Set a password" without
            // a current one, after "Confirm with Pocket ID"; deleting asks for no password.
            try await grace.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings") }
            // Being signed in is not enough: a stolen session cannot delete the account.
            try await grace.post("/settings/delete", form: "") { assertResponse($0, named: "delete-unconfirmed") }
            #expect(try await people.overview(at: Date()).count == 1)
            let confirmed = try await Self.confirm(grace, provider, subject: "only")
            try await grace.post("/settings/delete", form: "", cookies: [confirmed]) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/sign-up")
            }
            #expect(try await people.overview(at: Date()).isEmpty)
        }
    }

    @Test(
        "An account without a password sets its first one in Settings with no current password; then it signs in with it and may disconnect"
    )
    func providerOnlySetsPassword() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { provider.stop() }
        let data = try SQLitePersonalData.inMemory()
        try await Self.withApp(provider: provider, data: data) { client in
            let grace = try await Self.signInProviderOnly(client, provider)
            // First "Confirm with Pocket ID": a stolen session cannot give itself a password.
            try await grace.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings") }
            try await grace.post("/settings", form: "name=Grace&newPassword=quiet-river-stones-42") {
                assertResponse($0, named: "new-password-unconfirmed")
            }
            // Another of the provider's accounts does not confirm this one.
            #expect(
                try await Self.confirm(
                    grace, provider, subject: "someone-else", expecting: "Signing in with Pocket ID did not work.")
                    == "")
            let confirmed = try await Self.confirm(grace, provider, subject: "only")
            // A new password's field, and no "Confirm with Pocket ID".
            try await grace.execute(uri: "/settings", method: .get, headers: [.cookie: confirmed]) {
                assertResponse($0, named: "settings-confirmed")
            }
            // A weak one is refused as anywhere else, and still asks for no current password.
            try await grace.post("/settings", form: "name=Grace&newPassword=short", cookies: [confirmed]) {
                assertResponse($0, named: "new-password-weak")
            }
            try await grace.post(
                "/settings", form: "name=Grace&newPassword=quiet-river-stones-42", cookies: [confirmed]
            ) {
                response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/settings")
            }
            try await client.post("/sign-in", form: "username=grace&password=quiet-river-stones-42") { response in
                #expect(response.status == .seeOther)
            }
            // "Password" with the current one, and "Disconnect Pocket ID".
            try await grace.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-password") }
            // From now on a change needs the password just set, as for anyone.
            try await grace.post("/settings", form: "name=Grace&newPassword=another-calm-morning-7") {
                assertResponse($0, named: "new-password-without-current")
            }
        }
    }

    /// "Confirm with Pocket ID" as `subject`: off with `prompt=login`, and back to Settings with
    /// `expecting` flashed; the confirmation cookie it set ("" for none).
    static func confirm(
        _ client: SignedInClient, _ provider: TestOpenIDProvider, subject: String,
        expecting flash: String = "Confirmed with Pocket ID."
    ) async throws -> String {
        let started = try await client.execute(uri: "/settings/oidc/confirm", method: .get) { try Started($0) }
        #expect(started.query["prompt"] == "login")
        provider.prepare(
            code: "confirm-\(subject)",
            provider.grant(subject: subject, nonce: started.query["nonce"], challenge: started.query["code_challenge"]))
        var cookie = ""
        try await Self.callback(
            client, code: "confirm-\(subject)", state: started.query["state"] ?? "", cookie: started.cookie
        ) { response in
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/settings")
            let message = try GroupsRoutesTests.flash(response)
            #expect(message?.hasPrefix(flash) == true, "\(message ?? "no flash")")
            if let header = response.headers[values: .setCookie].first(where: { $0.hasPrefix("sangha_confirmed=") }) {
                #expect(cookieAttributes(header) == ["HttpOnly", "Max-Age=600", "Path=/", "SameSite=Lax"])
                cookie = String(header.prefix { $0 != ";" })
            }
        }
        return cookie
    }

    /// Grace, new, signed in by the provider alone: her account has no password.
    static func signInProviderOnly(
        _ client: any TestClientProtocol, _ provider: TestOpenIDProvider
    ) async throws -> SignedInClient {
        let started = try await Self.start(client)
        var grant = provider.grant(
            subject: "only", nonce: started.query["nonce"], challenge: started.query["code_challenge"])
        grant.preferredUsername = "grace"
        provider.prepare(code: "c", grant)
        var session = ""
        try await Self.callback(client, code: "c", state: started.query["state"] ?? "", cookie: started.cookie) {
            response in
            session = try #require(Self.sessionCookie(in: response))
        }
        return SignedInClient(base: client, sessionCookie: session)
    }

    @Test(
        "Settings' password form lists the provider's identity and the calendar link; checked, each ends with the save, the new password too"
    )
    func passwordChangeEndsOtherWaysIn() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { provider.stop() }
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        try await Self.withApp(provider: provider, data: data) { client in
            let ada = try await client.signedUp()
            let adaID = try #require(try await people.credentials(username: "ada")?.person.id)
            // Neither yet: nothing is listed.
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings") }
            try await people.connect(ProviderIdentity(issuer: provider.issuer, subject: "ada-sub"), to: adaID)
            try await people.setCalendarKey("calendar-key", of: adaID)
            // "Other ways in": "Disconnect Pocket ID" and "End calendar link", unchecked.
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-other-ways") }
            // A wrong current password: nothing ends, the boxes stay checked.
            let form =
                "name=Ada&currentPassword=wrong+password+here&newPassword=quiet-river-stones-42&endProvider=on&endCalendarLink=on"
            try await ada.post("/settings", form: form) { assertResponse($0, named: "wrong-password") }
            #expect(try await people.connectedIssuers(of: adaID) == [provider.issuer])
            #expect(try await people.credentials(id: adaID)?.person.calendarKey == "calendar-key")
            let right = form.replacingOccurrences(
                of: "wrong+password+here", with: TestDependencies.password.replacingOccurrences(of: " ", with: "+"))
            try await ada.post("/settings", form: right) { response in
                #expect(response.status == .seeOther)
                let message = try GroupsRoutesTests.flash(response)
                #expect(
                    message
                        == [
                            SettingsViewModel.signedOutElsewhere, "Disconnected from Pocket ID.",
                            SettingsViewModel.calendarLinkEnded,
                        ].joined(separator: " "))
            }
            #expect(try await people.connectedIssuers(of: adaID) == [])
            #expect(try await people.credentials(id: adaID)?.person.calendarKey == nil)
            #expect(try await people.person(calendarKey: "calendar-key") == nil)
            // No other ways in; "Connect your account to sign in with Pocket ID too."
            try await ada.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-ended") }
        }
    }

    @Test(
        "A session a password started ends with endPasswordSessions (--password-sign-in off at start); the provider's stays"
    )
    func passwordSessionsTellTheirMethod() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { provider.stop() }
        let data = try SQLitePersonalData.inMemory()
        let people = data.people
        try await Self.withApp(provider: provider, data: data) { client in
            let ada = try await client.signedUp()
            let grace = try await Self.signInProviderOnly(client, provider)
            #expect(try await people.endPasswordSessions() == 1)
            try await ada.execute(uri: "/settings", method: .get) { response in
                #expect(response.status == .seeOther)
            }
            try await grace.execute(uri: "/settings", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("Without an identity provider both addresses answer 404 and the sign-in page offers none")
    func noProvider() async throws {
        try await SanghaWebTests.withApp { client in
            for uri in ["/sign-in/oidc/start", "/sign-in/oidc?code=a&state=b"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                }
            }
            // The password form alone: no "Sign in with".
            try await client.execute(uri: "/sign-in", method: .get) { assertResponse($0, named: "sign-in") }
        }
    }
}
