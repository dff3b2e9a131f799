import Foundation
import SanghaCore
import Testing

@testable import SanghaStore

/// The memory of sign-in sessions found in SQLite: what it serves, and what it must not.
@Suite("Sign-in session memo")
struct SignInSessionMemoTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let ada = Person(id: 1, username: "ada", name: "Ada Lovelace", createdAt: now)
    static let grace = Person(id: 2, username: "grace", name: "Grace Hopper", createdAt: now)

    @Test("A session remembered is served until it is due to be touched again")
    func served() {
        let memo = SignInSessionMemo()
        memo.remember("a", person: Self.ada, lastUsed: Self.now, startedAt: Self.now, ifStill: memo.generation)
        #expect(memo.person("a", at: Self.now + SignInSession.touchInterval - 1) == Self.ada)
        #expect(memo.person("a", at: Self.now + SignInSession.touchInterval) == nil)
        #expect(memo.person("b", at: Self.now) == nil)
        // Nor past its longest life, however recently it was used.
        let old = Self.now - SignInSession.longestLife + 60
        memo.remember("o", person: Self.ada, lastUsed: Self.now, startedAt: old, ifStill: memo.generation)
        #expect(memo.person("o", at: Self.now + 59) == Self.ada)
        #expect(memo.person("o", at: Self.now + 60) == nil)
    }

    @Test("Forgetting a key or a person ends what was remembered; a read begun before is not remembered")
    func forgotten() {
        let memo = SignInSessionMemo()
        memo.remember("a", person: Self.ada, lastUsed: Self.now, startedAt: Self.now, ifStill: memo.generation)
        memo.remember("g", person: Self.grace, lastUsed: Self.now, startedAt: Self.now, ifStill: memo.generation)
        memo.forget(person: Self.ada.id)
        #expect(memo.person("a", at: Self.now) == nil)
        #expect(memo.person("g", at: Self.now) == Self.grace)
        memo.forget("g")
        #expect(memo.person("g", at: Self.now) == nil)

        // A lookup read the session, then a sign-out ended it before the lookup remembered it.
        let before = memo.generation
        memo.forget("a")
        memo.remember("a", person: Self.ada, lastUsed: Self.now, startedAt: Self.now, ifStill: before)
        #expect(memo.person("a", at: Self.now) == nil)
    }
}
