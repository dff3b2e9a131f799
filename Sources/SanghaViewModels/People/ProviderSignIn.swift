import Foundation
import SanghaCore

/// Signing in with the group's identity provider, once its ID token is verified: the person it
/// names by (issuer, subject), or a new account for them under `--sign-up`'s rule.
public enum ProviderSignIn {
    /// What the provider says of the person, besides who they are.
    public struct Claims: Sendable, Equatable {
        public var name: String?
        public var preferredUsername: String?

        public init(name: String? = nil, preferredUsername: String? = nil) {
            (self.name, self.preferredUsername) = (name, preferredUsername)
        }
    }

    /// Signs in the person connected to `identity`, or creates them: with `invite`, only when an
    /// invitation (`invitationKey`) or a group's link (`groupInvitationKey`, from where they
    /// were going) came first; with `closed`, no one but a new deployment's first person.
    /// Their username is the provider's `preferred_username` where it can be one, made unique
    /// with a number up to 20, then with six random letters and digits; their name its `name`.
    public static func submit(
        identity: ProviderIdentity, claims: Claims, provider: String, next: String?, invitationKey: String?,
        groupInvitationKey: String?, mode: SignUpMode, people: any PeopleRepository,
        makeToken: (@Sendable () -> String)?, context: PageContext
    ) async -> AccountOutcome<SignInViewModel> {
        var random = SystemRandomNumberGenerator()
        func refused(_ message: String, _ refusal: AccountOutcome<SignInViewModel>.Refusal)
            -> AccountOutcome<SignInViewModel>
        {
            .form(
                SignInViewModel(
                    context: context, next: next,
                    alert: AlertViewModel(title: context.words.signInCouldNot, message: message)),
                refusal)
        }
        let admission = Admission(mode: mode, invitationKey: invitationKey, groupInvitationKey: groupInvitationKey)
        do {
            if let found = try await people.credentials(identity: identity) {
                guard !found.person.isDisabled else { return refused(context.words.signInDisabled, .disabled) }
                return .signedIn(found.person, next: LocalPath.sanitize(next))
            }
            let base = username(from: claims.preferredUsername)
            let name = (claims.name?.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap {
                $0.isEmpty || Person.nameRefusal($0) != nil ? nil : $0
            }
            // "grace", then "grace2", "grace3"… "grace20", then "grace-k3x9qz" (random) until one is
            // free: a crowd of Graces never keeps one out.
            for attempt in 1...(numbered + randomTries) {
                let candidate =
                    attempt == 1
                    ? base : attempt <= numbered ? suffixed(base, attempt) : randomlySuffixed(base, using: &random)
                let person = Person(
                    username: candidate, name: name ?? candidate, friendServiceToken: makeToken?(),
                    createdAt: context.now, timeZone: context.timeZone)
                do {
                    let created = try await people.create(
                        person, passwordHash: "", identity: identity, admission: admission, at: context.now)
                    return .signedUp(created, next: LocalPath.sanitize(next))
                } catch PeopleRepositoryError.usernameTaken {
                    continue
                } catch PeopleRepositoryError.identityTaken {
                    // Their other tab made the account a moment ago.
                    guard let found = try await people.credentials(identity: identity) else { break }
                    return .signedIn(found.person, next: LocalPath.sanitize(next))
                }
            }
            return refused(context.words.signInProviderFailed(provider: provider), .providerRefused)
        } catch PeopleRepositoryError.invitationNeeded {
            return mode == .closed
                ? refused(context.words.signUpClosed, .invitationNeeded)
                : refused(SignUpViewModel.invitationNeeded(context.words).message, .invitationNeeded)
        } catch {
            return refused(
                StorageMessage.text(for: error, otherwise: context.words.signInFailed, words: context.words), .storage)
        }
    }

    /// A username from the provider's suggestion: its letters, digits, `-` and `_`, at most 30;
    /// "member" when nothing of it is left, padded to the least length.
    static func username(from suggestion: String?) -> String {
        let kept = String(
            (suggestion ?? "").unicodeScalars.filter {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
            }.prefix(Person.usernameLengths.upperBound))
        if kept.isEmpty { return "member" }
        return kept.count < Person.usernameLengths.lowerBound
            ? kept + String(repeating: "_", count: 3 - kept.count) : kept
    }

    /// `base` with `number` after it, within the longest username.
    static func suffixed(_ base: String, _ number: Int) -> String {
        let suffix = String(number)
        return String(base.prefix(Person.usernameLengths.upperBound - suffix.count)) + suffix
    }

    /// Usernames tried with a number ("grace", "grace2" … "grace20"), then with a random suffix.
    static let numbered = 20
    /// Random suffixes tried before giving up: 36⁶ of them, so a second is all but never needed.
    static let randomTries = 5

    /// `base`, a `-` and six random lowercase letters and digits, within the longest username.
    static func randomlySuffixed(_ base: String, using random: inout some RandomNumberGenerator) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let suffix = "-" + String((0..<6).map { _ in alphabet.randomElement(using: &random)! })
        return String(base.prefix(Person.usernameLengths.upperBound - suffix.count)) + suffix
    }
}
