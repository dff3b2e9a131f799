import HTTPTypes
import Hummingbird
import SanghaCore
import SanghaViewModels

/// People: `/sign-up`, `/sign-in`, `POST /sign-out`, `/reset-password`, `/settings` (and
/// `POST /settings/delete`), and the person's own page `/me`.
struct PeopleRoutes {
    let dependencies: Dependencies
    let renderer: PageRenderer
    let configuration: AppConfiguration
    var maxFormSize: Int { configuration.maxFormSize }
    var people: any PeopleRepository { dependencies.people }
    var passwords: any PasswordHashing { dependencies.passwords }
    var acceptsToken: Bool { dependencies.friendTokens.acceptsPastedToken }

    /// The pages anyone may open.
    func addPublicRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.signUp, use: signUpPage)
        router.post(Paths.signUp, use: signUp)
        router.get(Paths.signIn, use: signInPage)
        router.post(Paths.signIn, use: signIn)
        // Signing out with a session that has already ended is not an error.
        router.post(Paths.signOut, use: signOut)
        router.get(Paths.resetPassword, use: resetPasswordPage)
        router.post(Paths.resetPassword, use: resetPassword)
        // The group's identity provider: there and back (ProviderSignInRoutes.swift).
        router.get(Paths.providerSignInStart, use: providerSignInStart)
        router.get(Paths.providerSignIn, use: providerSignIn)
    }

    /// The pages of someone signed in.
    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.settings, use: settings)
        router.post(Paths.settings, use: saveSettings)
        router.post(Paths.deleteAccount, use: deleteAccount)
        // A post with the person's password (another site can neither make it nor know the
        // password); its answer links on to the provider, since a form's answer may not lead to
        // another site (Content-Security-Policy's form-action). GET is 405.
        router.post(Paths.connectProvider, use: connectProvider)
        router.post(Paths.disconnectProvider, use: disconnectProvider)
        router.get(Paths.confirmProvider, use: confirmProvider)
        router.get(Paths.me, use: me)
    }

    @Sendable func signUpPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let signedIn = alreadySignedIn(request, context) { return signedIn }
        let input = AccountInput(
            next: request.uri.queryParameters["next"].map(String.init),
            invitation: request.uri.queryParameters["invitation"].flatMap { SecretToken.wellFormed(String($0)) })
        let outcome = await SignUpViewModel.load(
            input, invitationKey: input.invitation.map(SecretToken.key(of:)), mode: configuration.signUp,
            people: people, context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.failed)
    }

    @Sendable func signUp(_ request: Request, context: AppRequestContext) async throws -> Response {
        try refusePasswords()
        var input = try await request.decodeForm(AccountInput.self, limit: maxFormSize)
        input.invitation = input.invitation.flatMap(SecretToken.wellFormed)
        let outcome = await SignUpViewModel.submit(
            input, mode: configuration.signUp, invitationKey: input.invitation.map(SecretToken.key(of:)),
            groupInvitationKey: input.groupInvitation.flatMap(SecretToken.wellFormed).map(SecretToken.key(of:)),
            people: people, passwords: passwords, requester: requester(request, context),
            makeToken: dependencies.friendTokens.makeToken, context: context.page)
        if case .signedIn(let person, _) = outcome { await dependencies.friendTokens.welcome(person) }
        return try await respond(outcome, by: .password, request: request, context: context)
    }

    @Sendable func signInPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let signedIn = alreadySignedIn(request, context) { return signedIn }
        let page = SignInViewModel(context: context.page, next: request.uri.queryParameters["next"].map(String.init))
        return try renderer.response(page, for: request)
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        try refusePasswords()
        let input = try await request.decodeForm(AccountInput.self, limit: maxFormSize)
        let outcome = await SignInViewModel.submit(
            input, people: people, passwords: passwords, requester: requester(request, context), context: context.page)
        return try await respond(outcome, by: .password, request: request, context: context)
    }

    @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let key = context.signInKey {
            do {
                try await people.endSession(key: key)
                await dependencies.data.groupEvents.publish([.signedOut(session: key)])
            } catch {
                throw HTTPError(.serviceUnavailable, message: StorageMessage.text(for: error, otherwise: Self.failed))
            }
        }
        var response = renderer.redirect(Redirect(to: Paths.signIn.url, flash: .success("You are signed out.")))
        response.setCookie(SignInCookie.cleared(jar: context.cookieJar))
        // The browser's HTTP cache goes too, so no page of this person's is left in it for the
        // next one. Only "cache": "storage" would also delete the device's IndexedDB, where the
        // sits not yet sent wait (outbox.js) until this person signs in again on this device,
        // and the service worker with its files; "cookies" would end the CSRF cookie too. The
        // pages the service worker kept (Cache Storage, which "cache" leaves) are deleted by the
        // page's script once this answer says the person is signed out (pocket.js).
        response.headers[Self.clearSiteData] = #""cache""#
        return response
    }

    static let clearSiteData = HTTPField.Name("Clear-Site-Data")!

    @Sendable func settings(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = SettingsViewModel(
            person: try context.person(), acceptsToken: acceptsToken,
            context: await dependencies.settingsPage(request, context))
        return try renderer.response(page, for: request)
    }

    @Sendable func saveSettings(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await request.decodeForm(AccountInput.self, limit: maxFormSize)
        let person = try context.person()
        let outcome = await SettingsViewModel.submit(
            input, person: person, acceptsToken: acceptsToken, people: people, passwords: passwords,
            session: context.signInKey, requester: requester(request, context),
            context: await dependencies.settingsPage(request, context))
        // Shown or hidden now: their groups' "Sitting now" may change.
        if case .redirect = outcome, input.showsWhenSitting != person.showsWhenSitting,
            let groups = try? await dependencies.data.groups(of: person.id).list()
        {
            await dependencies.data.groupEvents.publish(groups.map { .changed(group: $0.group.id) })
        }
        // A new password signed them out everywhere else: those browsers' group pages stop at once.
        if case .redirect = outcome, !(input.newPassword ?? "").isEmpty {
            await dependencies.data.groupEvents.publish([
                .signedOutEverywhere(person: person.id, except: context.signInKey)
            ])
        }
        return try renderer.response(outcome, for: request, notFound: Self.gone)
    }

    @Sendable func deleteAccount(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await request.decodeForm(AccountInput.self, limit: maxFormSize)
        let person = try context.person()
        // Read before they go: their groups no longer show them.
        let groups = (try? await dependencies.data.groups(of: person.id).list()) ?? []
        let outcome = await SettingsViewModel.delete(
            password: input.password, person: person, acceptsToken: acceptsToken, people: people,
            passwords: passwords, clearFriends: dependencies.friendTokens.listRemover(for: person),
            requester: requester(request, context), context: await dependencies.settingsPage(request, context))
        var response = try renderer.response(outcome, for: request, notFound: Self.gone)
        if case .redirect = outcome {
            response.setCookie(SignInCookie.cleared(jar: context.cookieJar))
            await dependencies.data.groupEvents.publish(
                groups.flatMap {
                    [.membershipEnded(group: $0.group.id, person: person.id), .changed(group: $0.group.id)]
                })
        }
        return response
    }

    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> Response {
        let person = try context.person()
        let page = await MeViewModel.load(
            person: person, profiles: dependencies.data.profiles(of: person.id),
            sessions: dependencies.data.sessions(of: person.id), friends: dependencies.friends(of: person),
            context: context.page)
        return try renderer.response(page, for: request)
    }

    @Sendable func resetPasswordPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = request.uri.queryParameters["token"].flatMap { SecretToken.wellFormed(String($0)) }
        let outcome = await PasswordResetViewModel.load(
            token: token ?? "", key: token.map(SecretToken.key(of:)), people: people, context: context.page)
        return try renderer.response(outcome, for: request, notFound: PasswordResetViewModel.expired)
    }

    struct ResetInput: Decodable {
        var token: String?
        var newPassword: String?
    }

    @Sendable func resetPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await request.decodeForm(ResetInput.self, limit: maxFormSize)
        let token = input.token.flatMap(SecretToken.wellFormed)
        let outcome = await PasswordResetViewModel.submit(
            token: token ?? "", key: token.map(SecretToken.key(of:)), newPassword: input.newPassword ?? "",
            people: people, passwords: passwords, context: context.page)
        return try renderer.response(outcome, for: request, notFound: PasswordResetViewModel.expired)
    }

    /// Who is asking, for the limits on guessing: the client's address and device cookie.
    func requester(_ request: Request, _ context: AppRequestContext) -> Requester {
        Requester(
            address: ClientAddress.of(
                request, peer: context.remoteAddress, trustedProxies: configuration.trustedProxies),
            device: context.device,
            addressLimit: configuration.addressLimit)
    }

    /// Signed in: a new session (never the one the browser brought, so no fixation) that keeps
    /// how it began (`method`), a device cookie for the account and a new form token, and on to
    /// `next`. Otherwise the form again with its status.
    func respond<Form: Page>(
        _ outcome: AccountOutcome<Form>, by method: SignInMethod, request: Request, context: AppRequestContext
    ) async throws -> Response {
        switch outcome {
        case .form(let form, let refusal):
            return try renderer.response(form, status: refusal.status, for: request)
        case .signedIn(let person, let next):
            let id = SignInCookie.newID()
            do {
                if let old = context.signInKey { try await people.endSession(key: old) }
                try await people.startSession(
                    key: SignInCookie.key(of: id), of: person.id, at: context.page.now, by: method)
            } catch {
                throw HTTPError(.serviceUnavailable, message: StorageMessage.text(for: error, otherwise: Self.failed))
            }
            var response = renderer.redirect(Redirect(to: next))
            response.setCookie(SignInCookie.cookie(id, jar: context.cookieJar))
            response.setCookie(FormToken.cookie(SecretToken.make(), jar: context.cookieJar))
            if context.device?.username != person.username.lowercased() {
                response.setCookie(
                    DeviceCookie.cookie(for: person.username, signer: dependencies.signer, jar: context.cookieJar))
            }
            return response
        }
    }

    /// With `--password-sign-in off`, a password neither signs in nor makes an account.
    private func refusePasswords() throws {
        guard !configuration.passwordSignIn, let provider = dependencies.identityProvider else { return }
        throw HTTPError(
            .forbidden,
            message: "Passwords do not sign in here: \(SignInViewModel.signIn(with: provider.configuration.name)).")
    }

    /// The sign-in and sign-up pages of someone signed in lead home (or to `next`).
    func alreadySignedIn(_ request: Request, _ context: AppRequestContext) -> Response? {
        guard context.page.person != nil, !request.prefersJSON else { return nil }
        let next = LocalPath.sanitize(request.uri.queryParameters["next"].map(String.init))
        return Response(status: .seeOther, headers: [.location: next])
    }

    static let failed = "Sangha could not reach its database. Please try again."
    static let gone = "This account no longer exists."
}
