import Foundation
import Hummingbird
import SanghaCore
import SanghaOIDC
import SanghaTokens
import SanghaViewModels

/// "Sign in with NAME": `GET /sign-in/oidc/start` sends the browser to the group's identity
/// provider with a new state, nonce and PKCE challenge, kept meanwhile in a signed cookie for
/// ten minutes; `GET /sign-in/oidc`, where the provider sends it back, checks the state, trades
/// the code for an ID token and verifies it (`OpenIDProvider`), then signs the person in as a
/// password would (`respond`, the session marked as the provider's). The cookie is cleared on
/// the way back, so a code or a state works once. Without a provider both answer 404. Settings'
/// "Connect NAME" (`POST`, the password first) and "Confirm with NAME" go the same way there
/// and back.
extension PeopleRoutes {
    @Sendable func providerSignInStart(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let provider = dependencies.identityProvider else { throw HTTPError(.notFound) }
        if let signedIn = alreadySignedIn(request, context) { return signedIn }
        let next = LocalPath.sanitize(request.uri.queryParameters["next"].map(String.init))
        let pending = ProviderAttempt(
            attempt: .make(), next: next,
            invitation: request.uri.queryParameters["invitation"].flatMap { SecretToken.wellFormed(String($0)) })
        return try await redirect(pending, to: provider, request: request, context: context)
    }

    /// "Connect NAME" in Settings (`POST`, with the form token): the person's password first,
    /// counted as Settings' other checks of it; then Settings again with "Continue to NAME", the
    /// provider's authorization URL, for the signed-in person (a link: a form's answer may not
    /// lead to another site). Without the password no identity is ever tied to the account, so
    /// another site cannot tie its own to it through a signed-in browser.
    @Sendable func connectProvider(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let provider = dependencies.identityProvider else { throw HTTPError(.notFound) }
        let input = try await request.decodeForm(AccountInput.self, limit: maxFormSize)
        let person = try context.person()
        let page = await dependencies.settingsPage(request, context)
        if let refusal = await SettingsViewModel.connectRefusal(
            password: input.connectPassword ?? "", person: person, acceptsToken: acceptsToken, people: people,
            passwords: passwords, requester: Requester(request, context, configuration), context: page)
        {
            return try renderer.response(refusal, for: request, notFound: context.page.words.accountGone)
        }
        let pending = ProviderAttempt(
            attempt: .make(), next: Paths.settings.url, invitation: nil, connecting: person.id)
        let url: URL
        do {
            url = try await provider.authorizationURL(for: pending.attempt, redirectURI: redirectURI(request))
        } catch {
            context.logger.warning("The identity provider cannot be reached: \(error)")
            return back(
                refused: context.page.words.providerCouldNotConnect,
                context.page.words.signInProviderUnreachable(provider: provider.configuration.name))
        }
        let settings = SettingsViewModel(
            person: person, acceptsToken: acceptsToken, context: page, providerContinueURL: url.absoluteString)
        var response = try renderer.response(settings, for: request)
        response.setCookie(pending.cookie(signer: dependencies.signer, jar: context.cookieJar))
        return response
    }

    /// "Confirm with NAME", for an account the provider alone signs in: signing in there again
    /// (`prompt=login`), back to Settings confirmed for ten minutes.
    @Sendable func confirmProvider(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let provider = dependencies.identityProvider else { throw HTTPError(.notFound) }
        let pending = ProviderAttempt(
            attempt: .make(), next: Paths.settings.url, invitation: nil, confirming: try context.person().id)
        return try await redirect(pending, to: provider, prompt: "login", request: request, context: context)
    }

    /// "Disconnect NAME": only while a password signs the person in too.
    @Sendable func disconnectProvider(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let provider = dependencies.identityProvider else { throw HTTPError(.notFound) }
        let person = try context.person()
        let name = provider.configuration.name
        do {
            guard let hash = try await people.credentials(id: person.id)?.passwordHash, !hash.isEmpty else {
                return back(
                    refused: context.page.words.providerCouldNotDisconnect,
                    ProviderSectionViewModel.onlyWayIn(name, words: context.page.words))
            }
            for issuer in try await people.connectedIssuers(of: person.id)
            where provider.isIssuer(issuer) {
                try await people.disconnect(issuer: issuer, from: person.id)
            }
        } catch {
            throw Self.accountStorageFailed(error, words: context.page.words)
        }
        return renderer.redirect(
            Redirect(
                to: Paths.settings.url,
                flash: .success(ProviderSectionViewModel.disconnected(name, words: context.page.words))))
    }

    /// Off to the provider with `pending` kept in the browser; the sign-in page saying so when
    /// the provider cannot be reached.
    private func redirect(
        _ pending: ProviderAttempt, to provider: OpenIDProvider, prompt: String? = nil, request: Request,
        context: AppRequestContext
    ) async throws -> Response {
        let url: URL
        do {
            url = try await provider.authorizationURL(
                for: pending.attempt, redirectURI: redirectURI(request), prompt: prompt)
        } catch {
            context.logger.warning("The identity provider cannot be reached: \(error)")
            let message = context.page.words.signInProviderUnreachable(provider: provider.configuration.name)
            if pending.confirming != nil {
                return back(refused: context.page.words.providerCouldNotConfirm, message)
            }
            return try signInPage(
                .providerUnreachable, message: message, next: pending.next, request: request, context: context)
        }
        var response = Response(status: .seeOther, headers: [.location: url.absoluteString])
        response.setCookie(pending.cookie(signer: dependencies.signer, jar: context.cookieJar))
        return response
    }

    @Sendable func providerSignIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let provider = dependencies.identityProvider else { throw HTTPError(.notFound) }
        let name = provider.configuration.name
        let query = request.uri.queryParameters
        let pending = ProviderAttempt.read(request, signer: dependencies.signer, jar: context.cookieJar)
        var response: Response
        func refused(_ reason: String) throws -> Response {
            context.logger.notice("Signing in with the identity provider refused: \(reason)")
            return try signInPage(
                .providerRefused, message: context.page.words.signInProviderFailed(provider: name), next: pending?.next,
                request: request, context: context)
        }
        if let error = query["error"] {
            response = try refused("the provider answered \(error)")
        } else if let pending, let state = query["state"], let code = query["code"] {
            if !ConstantTime.equal(String(state), pending.attempt.state) {
                response = try refused("another state")
            } else {
                response = try await signIn(
                    code: String(code), pending: pending, provider: provider, request: request, context: context)
            }
        } else {
            response = try refused(pending == nil ? "no sign-in was started in this browser" : "no code")
        }
        response.setCookie(ProviderAttempt.cleared(jar: context.cookieJar))
        return response
    }

    /// The code traded for a verified ID token, then the person it names signed in.
    private func signIn(
        code: String, pending: ProviderAttempt, provider: OpenIDProvider, request: Request,
        context: AppRequestContext
    ) async throws -> Response {
        let name = provider.configuration.name
        let identity: OpenIDProvider.Identity
        do {
            identity = try await provider.identity(
                code: code, attempt: pending.attempt, redirectURI: redirectURI(request))
        } catch {
            let refusal: AccountOutcome<SignInViewModel>.Refusal
            let message: String
            switch error {
            case .unreachable(let reason):
                context.logger.warning("The identity provider cannot be reached: \(reason)")
                (refusal, message) = (
                    .providerUnreachable, context.page.words.signInProviderUnreachable(provider: name)
                )
            case .refused(let reason):
                context.logger.notice("Signing in with the identity provider refused: \(reason)")
                (refusal, message) = (.providerRefused, context.page.words.signInProviderFailed(provider: name))
            }
            return try signInPage(refusal, message: message, next: pending.next, request: request, context: context)
        }
        if let id = pending.connecting {
            return try await connect(identity, to: id, provider: name, context: context)
        }
        if let id = pending.confirming {
            return try await confirm(identity, of: id, provider: name, context: context)
        }
        let outcome = await ProviderSignIn.submit(
            identity: ProviderIdentity(issuer: identity.issuer, subject: identity.subject),
            claims: .init(name: identity.name, preferredUsername: identity.preferredUsername), provider: name,
            next: pending.next, invitationKey: pending.invitation.map(SecretToken.key(of:)),
            groupInvitationKey: Paths.groupInvitationLink.value(inPath: pending.next)
                .flatMap(SecretToken.wellFormed).map(SecretToken.key(of:)),
            mode: configuration.signUp, people: people, makeToken: dependencies.friendTokens.makeToken,
            context: context.page)
        if case .signedUp(let person, _) = outcome { await dependencies.friendTokens.welcome(person) }
        return try await respond(outcome, by: .provider, request: request, context: context)
    }

    /// Back from "Connect NAME": the identity goes to the person who asked, if they are still
    /// the one signed in.
    private func connect(
        _ identity: OpenIDProvider.Identity, to id: Int, provider name: String, context: AppRequestContext
    ) async throws -> Response {
        guard context.page.person?.id == id else {
            return back(
                to: Paths.signIn.url, refused: context.page.words.providerCouldNotConnect,
                context.page.words.signInProviderFailed(provider: name))
        }
        let flash: FlashViewModel
        do {
            try await people.connect(ProviderIdentity(issuer: identity.issuer, subject: identity.subject), to: id)
            flash = .success(ProviderSectionViewModel.connected(name, words: context.page.words))
        } catch PeopleRepositoryError.identityTaken {
            flash = .error(
                title: context.page.words.providerCouldNotConnect,
                message: ProviderSectionViewModel.taken(name, words: context.page.words))
        } catch {
            throw Self.accountStorageFailed(error, words: context.page.words)
        }
        return renderer.redirect(Redirect(to: Paths.settings.url, flash: flash))
    }

    /// Back from "Confirm with NAME": the identity must be the one that signs this person in,
    /// who is still the one signed in here; then Settings lets them set a password or delete
    /// for ten minutes (`ProviderConfirmation`).
    private func confirm(
        _ identity: OpenIDProvider.Identity, of id: Int, provider name: String, context: AppRequestContext
    ) async throws -> Response {
        let owner: Int?
        do {
            owner = try await people.credentials(
                identity: ProviderIdentity(issuer: identity.issuer, subject: identity.subject))?.person.id
        } catch {
            throw Self.accountStorageFailed(error, words: context.page.words)
        }
        guard context.page.person?.id == id, owner == id else {
            context.logger.notice("Confirming with the identity provider refused: another account")
            return back(
                refused: context.page.words.providerCouldNotConfirm,
                context.page.words.signInProviderFailed(provider: name))
        }
        var response = renderer.redirect(
            Redirect(
                to: Paths.settings.url,
                flash: .success(ProviderConfirmViewModel.confirmed(name, words: context.page.words))))
        response.setCookie(
            ProviderConfirmation(person: id, at: context.page.now).cookie(
                signer: dependencies.signer, jar: context.cookieJar))
        return response
    }

    /// A 303 back to `path` (Settings, where these forms are, unless said) with the error
    /// `title`, `message` shown there.
    private func back(to path: String = Paths.settings.url, refused title: String, _ message: String) -> Response {
        renderer.redirect(Redirect(to: path, flash: .error(title: title, message: message)))
    }

    private func signInPage(
        _ refusal: AccountOutcome<SignInViewModel>.Refusal, message: String, next: String?, request: Request,
        context: AppRequestContext
    ) throws -> Response {
        let page = SignInViewModel(
            context: context.page, next: next,
            alert: AlertViewModel(title: context.page.words.signInCouldNot, message: message))
        return try renderer.response(page, status: refusal.status, for: request)
    }

    /// Where the provider sends the browser back: this deployment's address (`--public-url`),
    /// else the host the browser asked for (one of the allowed hosts: `HostCheckMiddleware`).
    private func redirectURI(_ request: Request) -> String {
        if let publicURL = configuration.publicURL {
            return publicURL.absoluteString.trimmingSuffix("/") + Paths.providerSignIn.url
        }
        return "http://\(request.head.authority ?? "127.0.0.1")\(Paths.providerSignIn.url)"
    }
}

extension Dependencies {
    /// A settings page's context: with how the person stands with the identity provider, when
    /// there is one (two reads; none without a provider). Unknown when the database fails: the
    /// section is left out.
    func settingsPage(_ request: Request, _ context: AppRequestContext) async -> PageContext {
        var page = context.page
        guard let provider = identityProvider, let person = page.person else { return page }
        guard let issuers = try? await people.connectedIssuers(of: person.id),
            let credentials = try? await people.credentials(id: person.id)
        else { return page }
        let confirmation = ProviderConfirmation.read(request, signer: signer, jar: context.cookieJar)
        let providers = issuers.filter(provider.isIssuer).sorted()
        page.providerAccount = ProviderAccount(
            isConnected: !providers.isEmpty,
            hasPassword: !credentials.passwordHash.isEmpty,
            isConfirmed: confirmation?.holds(for: person.id, at: page.now) == true,
            issuers: providers)
        return page
    }
}

/// A sign-in on its way to the provider: its secrets, where the person was going, and the
/// invitation they brought. Kept in the browser for ten minutes, signed with the deployment's
/// secret: what comes back can only be what was sent.
struct ProviderAttempt: SignedCookieValue {
    var attempt: OpenIDProvider.Attempt
    var next: String
    var invitation: String?
    /// "Connect NAME": the signed-in person whose account the identity is for.
    var connecting: Int?
    /// "Confirm with NAME": the signed-in person the identity must be.
    var confirming: Int?

    static let cookieName = "sangha_oidc"
    static let purpose = "oidc"
    static let maxAge = 600

    static func cleared(jar: CookieJar) -> Cookie { jar.cleared(cookieName) }
}

/// "Confirm with NAME" done: who signed in again at the provider, and when. Kept in the browser
/// for ten minutes, signed with the deployment's secret.
struct ProviderConfirmation: SignedCookieValue {
    var person: Int
    var at: Date

    static let cookieName = "sangha_confirmed"
    static let purpose = "oidc-confirmed"
    static let maxAge = 600

    /// Whether it confirms `person` at `date` (the cookie's Max-Age aside, its own time says).
    func holds(for person: Int, at date: Date) -> Bool {
        self.person == person && date.timeIntervalSince(at) < TimeInterval(Self.maxAge)
            && date >= at.addingTimeInterval(-60)
    }
}

/// A value kept in the browser for a while, as JSON in a cookie signed for its own purpose:
/// what comes back can only be what was sent.
protocol SignedCookieValue: Codable, Sendable {
    static var cookieName: String { get }
    static var purpose: String { get }
    /// Seconds the browser keeps it.
    static var maxAge: Int { get }
}

extension SignedCookieValue {
    func cookie(signer: CookieSigner, jar: CookieJar) -> Cookie {
        let value = Base64URL.encode((try? JSONEncoder().encode(self)) ?? Data())
        return jar.cookie(Self.cookieName, value: signer.signed(value, for: Self.purpose), maxAge: Self.maxAge)
    }

    static func read(_ request: Request, signer: CookieSigner, jar: CookieJar) -> Self? {
        guard let signed = jar.value(cookieName, in: RequestCookies(request)),
            let value = signer.verified(signed, for: purpose)
        else { return nil }
        return Base64URL.decode(value).flatMap { try? JSONDecoder().decode(Self.self, from: Data($0)) }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
