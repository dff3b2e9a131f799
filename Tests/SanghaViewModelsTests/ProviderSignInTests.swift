import Foundation
import SanghaCore
import SanghaStore
import SanghaTestSupport
import Testing

@testable import SanghaViewModels

/// A new person from the identity provider: their username and name, and who is let in.
@Suite("Signing in with the identity provider: new accounts")
struct ProviderSignInTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let identity = ProviderIdentity(issuer: "https://id.example", subject: "248289761001")

    @Test("A username from preferred_username: its letters, digits, - and _, at least 3, at most 30; else member")
    func usernames() {
        #expect(ProviderSignIn.username(from: "grace.hopper") == "gracehopper")
        #expect(ProviderSignIn.username(from: "Ωmega-1_x") == "mega-1_x")
        #expect(ProviderSignIn.username(from: "ab") == "ab_")
        #expect(ProviderSignIn.username(from: nil) == "member")
        #expect(ProviderSignIn.username(from: "日本") == "member")
        #expect(ProviderSignIn.username(from: String(repeating: "a", count: 40)).count == 30)
        #expect(ProviderSignIn.suffixed(String(repeating: "a", count: 30), 12).count == 30)
        for name in ["gracehopper", "mega-1_x", "ab_", "member"] { #expect(Person.usernameRefusal(name) == nil) }
    }

    @Test("A taken username gets a number; the name comes from the provider; the same subject is the same person")
    func newAccounts() async throws {
        let people = try SQLitePersonalData.inMemory().people
        _ = try await people.create(
            Person(username: "grace", name: "Other Grace", createdAt: Self.now), passwordHash: "x")
        let context = PageContext(now: Self.now)
        let outcome = await ProviderSignIn.submit(
            identity: Self.identity, claims: .init(name: "Grace Hopper", preferredUsername: "grace"),
            provider: "Pocket ID", next: "/history", invitationKey: nil, groupInvitationKey: nil, mode: .open,
            people: people, makeToken: nil, context: context)
        guard case .signedUp(let grace, let next) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(grace.username == "grace2" && grace.name == "Grace Hopper" && next == "/history")
        let again = await ProviderSignIn.submit(
            identity: Self.identity, claims: .init(name: "Renamed", preferredUsername: "other"), provider: "Pocket ID",
            next: nil, invitationKey: nil, groupInvitationKey: nil, mode: .closed, people: people, makeToken: nil,
            context: context)
        #expect(again == .signedIn(grace, next: "/"))
        // Her account has no password: the password form does not sign her in.
        #expect(try await people.credentials(username: "grace2")?.passwordHash == "")
    }

    @Test("With the username and its 19 numbered ones taken, a newcomer gets a random suffix, not a refusal")
    func crowdedUsername() async throws {
        let people = try SQLitePersonalData.inMemory().people
        for username in ["grace"] + (2...20).map({ "grace\($0)" }) {
            _ = try await people.create(
                Person(username: username, name: "A Grace", createdAt: Self.now), passwordHash: "x")
        }
        let context = PageContext(now: Self.now)
        var usernames: Set<String> = []
        for subject in ["one", "two"] {
            let outcome = await ProviderSignIn.submit(
                identity: ProviderIdentity(issuer: "https://id.example", subject: subject),
                claims: .init(name: "Grace Hopper", preferredUsername: "grace"), provider: "Pocket ID", next: nil,
                invitationKey: nil, groupInvitationKey: nil, mode: .open, people: people, makeToken: nil,
                context: context)
            guard case .signedUp(let grace, _) = outcome else {
                Issue.record("\(subject): \(outcome)")
                return
            }
            #expect(grace.username.hasPrefix("grace-") && grace.username.count == 12, "\(grace.username)")
            #expect(Person.usernameRefusal(grace.username) == nil)
            usernames.insert(grace.username)
        }
        #expect(usernames.count == 2)
        // Within the longest username, from the longest base.
        var random = SystemRandomNumberGenerator()
        let long = ProviderSignIn.randomlySuffixed(String(repeating: "a", count: 30), using: &random)
        #expect(long.count == 30 && long.hasPrefix(String(repeating: "a", count: 23) + "-"))
        #expect(Person.usernameRefusal(long) == nil)
    }

    @Test("With invite a new subject needs an invitation, with closed none is let in; a disabled person is refused")
    func admission() async throws {
        let people = try SQLitePersonalData.inMemory().people
        _ = try await people.create(Person(username: "admin", name: "Admin", createdAt: Self.now), passwordHash: "x")
        let context = PageContext(now: Self.now)
        for (mode, message) in [
            (SignUpMode.invite, SignUpViewModel.invitationNeeded(.english).message),
            (.closed, Words.english.signUpClosed),
        ] {
            let outcome = await ProviderSignIn.submit(
                identity: Self.identity, claims: .init(), provider: "Pocket ID", next: nil, invitationKey: nil,
                groupInvitationKey: nil, mode: mode, people: people, makeToken: nil, context: context)
            guard case .form(let page, let refusal) = outcome else {
                Issue.record("\(mode): \(outcome)")
                continue
            }
            #expect(refusal == .invitationNeeded && page.alert?.message == message)
        }
        #expect(try await people.overview(at: Self.now).count == 1)
        _ = try await people.create(
            Person(username: "someone", name: "Someone", createdAt: Self.now), passwordHash: "",
            identity: Self.identity,
            admission: .anyone, at: Self.now)
        let someone = try #require(try await people.credentials(identity: Self.identity)?.person)
        try await people.setDisabled(true, of: someone.id)
        let outcome = await ProviderSignIn.submit(
            identity: Self.identity, claims: .init(), provider: "Pocket ID", next: nil, invitationKey: nil,
            groupInvitationKey: nil, mode: .open, people: people, makeToken: nil, context: context)
        guard case .form(_, let refusal) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(refusal == .disabled)
    }
}
