import Foundation
import SanghaCore
import SanghaStore
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// `KeptPageParts<AdminPersonRow>` gives back a person's kept row, with its rendering, only for the very overview,
/// reader, zone, language and form token it was made from.
struct AdminRowsTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let ada = Person(id: 1, username: "ada", name: "Ada Lovelace", createdAt: now, isAdministrator: true)
    static let grace = PersonOverview(
        person: Person(id: 2, username: "grace", name: "Grace Hopper", createdAt: now), lastSignIn: now, sessions: 1)

    static func source(
        _ overview: PersonOverview = grace, reader: Person = ada, formToken: String = "ada's token",
        timeZone: TimeZone = TimeZone(identifier: "UTC")!
    ) -> AdminPersonRow.Source {
        var context = PageContext(formToken: formToken, now: now, person: reader)
        context.timeZone = timeZone
        return AdminPersonRow.Source(overview, context: context)
    }

    @Test("The same overview, reader and token give the kept row and its rendering; any change makes it again")
    func keptForTheSame() {
        let rows = KeptPageParts<AdminPersonRow>(limit: 10_000)
        let made = rows.part(Self.source(), words: .english)
        #expect(made == AdminPersonRow(Self.source(), words: .english))
        #expect(made.formToken == "ada's token")
        #expect(rows.part(Self.source(), words: .english).rendering === made.rendering, "the kept one")
        #expect(rows.count == 1)

        var disabled = Self.grace
        disabled.person.isDisabled = true
        let bob = Person(id: 3, username: "bob", name: "Bob", createdAt: Self.now, isAdministrator: true)
        for changed in [
            Self.source(disabled),
            Self.source(PersonOverview(person: Self.grace.person, lastSignIn: Self.now, sessions: 2)),
            Self.source(timeZone: TimeZone(identifier: "Pacific/Kiritimati")!),
            // Another administrator: their own token on the row's buttons, never Ada's.
            Self.source(reader: bob, formToken: "bob's token"),
        ] {
            let row = rows.part(changed, words: .english)
            #expect(row == AdminPersonRow(changed, words: .english))
            #expect(row.rendering !== made.rendering)
        }
        #expect(
            rows.part(Self.source(reader: bob, formToken: "bob's token"), words: .english).formToken == "bob's token")
    }

    @Test("The reader's own row, without Disable, is kept apart from the row others see")
    func readersOwnRow() {
        let rows = KeptPageParts<AdminPersonRow>(limit: 10_000)
        let adaAsOverview = PersonOverview(person: Self.ada, lastSignIn: Self.now, sessions: 1)
        let own = rows.part(Self.source(adaAsOverview), words: .english)
        let bob = Person(id: 3, username: "bob", name: "Bob", createdAt: Self.now, isAdministrator: true)
        let others = rows.part(Self.source(adaAsOverview, reader: bob, formToken: "bob's token"), words: .english)
        #expect(!own.actions.contains { $0.url.hasSuffix("/disable") })
        #expect(others.actions.contains { $0.url == "/admin/people/1/disable" })
        #expect(rows.count == 2)
    }

    @Test("Without passwords (--password-sign-in off) a row offers no Reset password, and a reset post is refused")
    func noResetWithoutPasswords() async throws {
        var context = PageContext(formToken: "t", now: Self.now, person: Self.ada)
        #expect(
            AdminPersonRow(.init(Self.grace, context: context), words: .english).actions.contains {
                $0.url == "/admin/people/2/reset-password"
            })
        context.signInProvider = "Pocket ID"
        context.passwordSignIn = false
        #expect(
            !AdminPersonRow(.init(Self.grace, context: context), words: .english).actions.contains {
                $0.url.hasSuffix("/reset-password")
            })
        let data = try SQLitePersonalData.inMemory()
        let outcome = await AdminViewModel.passwordReset(
            for: 2, key: "key", url: "/reset-password?token=t", people: data.people, signUp: .open, context: context)
        guard case .failed(_, .forbidden) = outcome else {
            Issue.record("\(outcome)")
            return
        }
    }
}
