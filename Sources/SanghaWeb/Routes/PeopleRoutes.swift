import HTTPTypes
import Hummingbird
import SanghaCore
import SanghaViewModels

/// People: `/settings` (and `POST /settings/delete`), the person's own page `/me`, and
/// `/reset-password`; written by hand beside them, signing up, in and out (`/sign-up`,
/// `/sign-in`, `POST /sign-out`: they start and end sessions, and set their cookies) and the
/// identity provider's round trip (ProviderSignInRoutes.swift).
struct PeopleRoutes: AreaRoutes {
    let services: RowServices
    var maxFormSize: Int { configuration.maxFormSize }
    var people: any PeopleRepository { dependencies.people }
    var passwords: any PasswordHashing { dependencies.passwords }
    var acceptsToken: Bool { dependencies.friendTokens.acceptsPastedToken }

    struct ResetInput: Decodable, Sendable {
        var token: String?
        var newPassword: String?
    }

    /// The `?token=` of a password reset link.
    struct ResetQuery: Decodable, Sendable {
        var token: String?
    }

    /// The pages of someone signed in.
    static let rows: [PageRow] = [
        .get(Paths.settings) { asked in
            let person = try asked.person()
            let notifications: NotificationsSectionViewModel? =
                if let push = asked.dependencies.push {
                    await NotificationsSectionViewModel.load(
                        person: person, push: push.repository, words: asked.page.words)
                } else { nil }
            return LoadOutcome.page(
                SettingsViewModel(
                    person: person, acceptsToken: asked.dependencies.friendTokens.acceptsPastedToken,
                    context: await asked.dependencies.settingsPage(asked.request, asked.context),
                    notifications: notifications))
        },
        .post(Paths.settings, form: AccountInput.self, notFound: gone) { asked in
            await SettingsViewModel.submit(
                asked.input, person: try asked.person(),
                acceptsToken: asked.dependencies.friendTokens.acceptsPastedToken, people: asked.people,
                passwords: asked.dependencies.passwords, groups: try asked.groups(), session: asked.context.signInKey,
                requester: asked.requester, context: await asked.dependencies.settingsPage(asked.request, asked.context)
            )
        },
        .get(Paths.me) {
            LoadOutcome.page(
                await MeViewModel.load(
                    person: try $0.person(), profiles: try $0.profiles(), sessions: try $0.sessions(),
                    friends: try $0.friends(), context: $0.page))
        },
    ]

    /// The pages anyone may open: a password reset link's.
    static let publicRows: [PageRow] = [
        .get(Paths.resetPassword, query: ResetQuery.self, notFound: { words, _ in words.passwordResetExpired }) {
            let token = $0.input.token.flatMap(SecretToken.wellFormed)
            return await PasswordResetViewModel.load(
                token: token ?? "", key: token.map(SecretToken.key(of:)), people: $0.people, context: $0.page)
        },
        .post(Paths.resetPassword, form: ResetInput.self, notFound: { $0.passwordResetExpired }) {
            let token = $0.input.token.flatMap(SecretToken.wellFormed)
            return await PasswordResetViewModel.submit(
                token: token ?? "", key: token.map(SecretToken.key(of:)), newPassword: $0.input.newPassword ?? "",
                people: $0.people, passwords: $0.dependencies.passwords, context: $0.page)
        },
    ]

    /// The pages anyone may open.
    func addPublicRoutes(to router: some RouterMethods<AppRequestContext>) {
        add(Self.publicRows, to: router)
        router.get(Paths.signUp, use: signUpPage)
        router.post(Paths.signUp, use: signUp)
        router.get(Paths.signIn, use: signInPage)
        router.post(Paths.signIn, use: signIn)
        // Signing out with a session that has already ended is not an error.
        router.post(Paths.signOut, use: signOut)
        router.post(Paths.language, use: chooseLanguage)
        // The group's identity provider: there and back (ProviderSignInRoutes.swift).
        router.get(Paths.providerSignInStart, use: providerSignInStart)
        router.get(Paths.providerSignIn, use: providerSignIn)
    }

    /// The hand-written pages of someone signed in: deleting the account ends its session.
    func addHandWritten(to router: some RouterMethods<AppRequestContext>) {
        router.post(Paths.deleteAccount, use: deleteAccount)
        // A post with the person's password (another site can neither make it nor know the
        // password); its answer links on to the provider, since a form's answer may not lead to
        // another site (Content-Security-Policy's form-action). GET is 405.
        router.post(Paths.connectProvider, use: connectProvider)
        router.post(Paths.disconnectProvider, use: disconnectProvider)
        router.get(Paths.confirmProvider, use: confirmProvider)
    }

    @Sendable func signUpPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let signedIn = alreadySignedIn(request, context) { return signedIn }
        let input = AccountInput(
            next: request.uri.queryParameters["next"].map(String.init),
            invitation: request.uri.queryParameters["invitation"].flatMap { SecretToken.wellFormed(String($0)) })
        let outcome = await SignUpViewModel.load(
            input, invitationKey: input.invitation.map(SecretToken.key(of:)), mode: configuration.signUp,
            people: people, context: context.page)
        return try renderer.response(outcome, for: request, notFound: context.page.words.accountDatabaseFailed)
    }

    @Sendable func signUp(_ request: Request, context: AppRequestContext) async throws -> Response {
        try refusePasswords(context.page)
        var input = try await request.decodeForm(AccountInput.self, limit: maxFormSize)
        input.invitation = input.invitation.flatMap(SecretToken.wellFormed)
        let outcome = await SignUpViewModel.submit(
            input, mode: configuration.signUp, invitationKey: input.invitation.map(SecretToken.key(of:)),
            groupInvitationKey: input.groupInvitation.flatMap(SecretToken.wellFormed).map(SecretToken.key(of:)),
            people: people, passwords: passwords, requester: Requester(request, context, configuration),
            makeToken: dependencies.friendTokens.makeToken, context: context.page)
        if case .signedUp(let person, _) = outcome { await dependencies.friendTokens.welcome(person) }
        return try await respond(outcome, by: .password, request: request, context: context)
    }

    @Sendable func signInPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let signedIn = alreadySignedIn(request, context) { return signedIn }
        let page = SignInViewModel(context: context.page, next: request.uri.queryParameters["next"].map(String.init))
        return try renderer.response(page, for: request)
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        try refusePasswords(context.page)
        let input = try await request.decodeForm(AccountInput.self, limit: maxFormSize)
        let outcome = await SignInViewModel.submit(
            input, people: people, passwords: passwords, requester: Requester(request, context, configuration),
            context: context.page)
        return try await respond(outcome, by: .password, request: request, context: context)
    }

    /// What the sign-out form's script adds: this device's push subscription, which goes too.
    struct SignOutInput: Decodable, Sendable {
        var pushEndpoint: String?
    }

    @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let key = context.signInKey {
            do {
                // This device's notifications end with its sign-in: the devices added under
                // this session, and the one the script names (added under an earlier one).
                if let push = dependencies.push, let person = context.page.person {
                    let endpoint = (try? await request.decodeForm(SignOutInput.self, limit: maxFormSize))?.pushEndpoint
                    try await push.repository.signedOut(session: key, endpoint: endpoint, of: person.id)
                }
                try await people.endSession(key: key)
            } catch {
                throw Self.accountStorageFailed(error, words: context.page.words)
            }
        }
        // Their group pages in this browser stop hearing the groups at once.
        let signedOut = Redirect(
            to: Paths.signIn.url, flash: .success(context.page.words.accountSignedOut),
            events: context.signInKey.map { [.signedOut(session: $0)] } ?? [])
        var response = try await services.answer(
            signedOut, to: request, notFound: context.page.words.accountDatabaseFailed)
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

    /// What the language picker posts.
    struct LanguageInput: Decodable, Sendable {
        var lang: String?
        var next: String?
    }

    /// The language picker: the `lang` cookie, and back to the page it was on.
    @Sendable func chooseLanguage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await request.decodeForm(LanguageInput.self, limit: maxFormSize)
        guard let language = input.lang.flatMap(Language.shipped(tag:)) else {
            throw PageFailure.invalid.error(context.page.words.languageChooseOne)
        }
        var response = renderer.redirect(Redirect(to: LocalPath.sanitize(input.next)))
        response.setCookie(LanguageCookie.cookie(language, jar: context.cookieJar))
        return response
    }

    /// Deleting the account: done, its session's cookie goes too, and its groups' pages are told.
    @Sendable func deleteAccount(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await request.decodeForm(AccountInput.self, limit: maxFormSize)
        let person = try context.person()
        let outcome = await SettingsViewModel.delete(
            password: input.password, person: person, acceptsToken: acceptsToken, people: people,
            passwords: passwords, groups: dependencies.data.groups(of: person.id),
            clearFriends: dependencies.friendTokens.listRemover(for: person),
            requester: Requester(request, context, configuration),
            context: await dependencies.settingsPage(request, context))
        var response = try await services.answer(outcome, to: request, notFound: context.page.words.accountGone)
        if case .redirect = outcome { response.setCookie(SignInCookie.cleared(jar: context.cookieJar)) }
        return response
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
        case .signedIn(let person, let next), .signedUp(let person, let next):
            let id = SignInCookie.newID()
            do {
                if let old = context.signInKey { try await people.endSession(key: old) }
                try await people.startSession(
                    key: SignInCookie.key(of: id), of: person.id, at: context.page.now, by: method)
            } catch {
                throw Self.accountStorageFailed(error, words: context.page.words)
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
    private func refusePasswords(_ page: PageContext) throws {
        guard !page.passwordsSignIn, let provider = page.signInProvider else { return }
        throw HTTPError(
            .forbidden, message: page.words.accountPasswordsOff(way: page.words.signInWithProvider(provider: provider)))
    }

    /// The sign-in and sign-up pages of someone signed in lead home (or to `next`).
    func alreadySignedIn(_ request: Request, _ context: AppRequestContext) -> Response? {
        guard context.page.person != nil, !request.prefersJSON else { return nil }
        let next = LocalPath.sanitize(request.uri.queryParameters["next"].map(String.init))
        return Response(status: .seeOther, headers: [.location: next])
    }

    /// The people's database failed: 503, saying why when the error says (else that the
    /// account database failed).
    static func accountStorageFailed(_ error: any Error, words: Words) -> HTTPError {
        PageFailure.storage.error(StorageMessage.text(for: error, otherwise: words.accountDatabaseFailed, words: words))
    }

    static let failed = "Sangha could not reach its database. Please try again."
    static func gone(_ words: Words) -> String { words.accountGone }
}
