import Foundation
import SanghaCore
import SanghaStoreSupport
import Synchronization
import Testing

/// What a process keeps in memory of its database (`Memo`, `ProfileMemo`, `KeptSignInSession`):
/// what it serves, and what it must not.
@Suite("What a process keeps in memory")
struct MemoTests {
    /// A watch a test turns on and off.
    final class Switch: ChangeWatch {
        let on = Atomic<Bool>(true)
        var hearsEveryChange: Bool { on.load(ordering: .relaxed) }
    }

    @Test("A value kept is served until it is forgotten; a read begun before a forget is not kept")
    func generation() {
        let memo = Memo<String, Int>(watch: AloneOnData())
        let (none, read) = memo.value("a")
        #expect(none == nil)
        memo.forget("other")  // any forget while the read was under way
        memo.keep(1, for: "a", from: read)
        #expect(memo.value("a").0 == nil)
        let (_, again) = memo.value("a")
        memo.keep(1, for: "a", from: again)
        #expect(memo.value("a").0 == 1)
        memo.forget { key, _ in key == "a" }
        #expect(memo.value("a").0 == nil)
        let (_, latest) = memo.value("a")
        memo.keep(2, for: "a", from: latest)
        memo.forgetAll()
        #expect(memo.value("a").0 == nil)
    }

    @Test("A write replaces what is kept, and a read begun before it is not kept over it")
    func wrote() {
        let memo = Memo<Int, String>(watch: AloneOnData())
        let (_, before) = memo.value(7)
        memo.wrote("Saved", for: 7)  // the save lands while the read is under way
        memo.keep("Old", for: 7, from: before)
        #expect(memo.value(7).0 == "Saved")
        let (_, again) = memo.value(8)
        memo.wrote(nil, for: 7)  // a delete while another read is under way
        memo.keep("Old", for: 8, from: again)
        #expect(memo.value(7).0 == nil)
        #expect(memo.value(8).0 == nil)
    }

    @Test("Nothing is kept or served while the watch does not hear every change, nor past the maximum age")
    func watchAndAge() async throws {
        let watch = Switch()
        let memo = Memo<String, Int>(watch: watch, maximumAge: .milliseconds(50))
        let (_, read) = memo.value("a")
        memo.keep(1, for: "a", from: read)
        #expect(memo.value("a").0 == 1)
        watch.on.store(false, ordering: .relaxed)
        let (served, none) = memo.value("a")
        #expect(served == nil)
        #expect(none == nil, "a read made now is not to be kept")
        memo.keep(2, for: "b", from: memo.value("b").read)
        watch.on.store(true, ordering: .relaxed)
        #expect(memo.value("b").0 == nil)
        #expect(memo.value("a").0 == 1)
        try await Task.sleep(for: .milliseconds(60))
        #expect(memo.value("a").0 == nil)
        #expect(Memo<String, Int>(watch: UnwatchedData()).value("a").read == nil)
    }

    @Test("A value the caller finds unusable is not served, and the one read again replaces it")
    func usable() {
        let memo = Memo<String, Int>(watch: AloneOnData())
        memo.keep(1, for: "a", from: memo.value("a").read)
        let (stale, read) = memo.value("a") { $0 > 1 }
        #expect(stale == nil)
        memo.keep(2, for: "a", from: read)
        #expect(memo.value("a") { $0 > 1 }.0 == 2)
    }

    /// Holds the reads a test lets go of.
    actor Gate {
        private var isOpen = false
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private(set) var reads = 0
        private(set) var arrived = 0

        func arrive() { arrived += 1 }

        /// A read: counts itself, waits for the gate and answers its number.
        func read() async -> Int {
            reads += 1
            let number = reads
            if !isOpen { await withCheckedContinuation { waiting.append($0) } }
            return number
        }

        func open() {
            isOpen = true
            waiting.forEach { $0.resume() }
            waiting = []
        }
    }

    struct Refused: Error, Equatable {}

    @Test("Requests that miss a key together share one read, and it is kept")
    func sharedRead() async throws {
        let memo = Memo<String, Int>(watch: AloneOnData())
        let gate = Gate()
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    await gate.arrive()
                    return await memo.value("a") { await gate.read() }
                }
            }
            while await gate.arrived < 10 { await Task.yield() }
            try await Task.sleep(for: .milliseconds(50))  // every request is waiting on the read
            await gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: 1, count: 10))
        #expect(await gate.reads == 1)
        #expect(memo.value("a").0 == 1)
    }

    @Test("A request after a forget does not join the read begun before it, which is not kept")
    func sharedReadAfterForget() async throws {
        let memo = Memo<String, Int>(watch: AloneOnData())
        let gate = Gate()
        async let first = memo.value("a") { await gate.read() }
        while await gate.reads < 1 { await Task.yield() }
        memo.forget("a")  // a write lands while the read is under way
        async let second = memo.value("a") { await gate.read() }
        while await gate.reads < 2 { await Task.yield() }
        await gate.open()
        #expect(await first == 1)
        #expect(await second == 2)
        #expect(memo.value("a").0 == 2)
    }

    @Test("A shared read that fails fails every request that joined it, and keeps nothing")
    func sharedReadFails() async throws {
        let memo = Memo<String, Int>(watch: AloneOnData())
        await #expect(throws: Refused()) {
            try await memo.value("a") { () async throws(Refused) -> Int in throw Refused() }
        }
        #expect(memo.value("a").0 == nil)
        let unwatched = Memo<String, Int>(watch: UnwatchedData())
        let gate = Gate()
        await gate.open()
        _ = await unwatched.value("a") { await gate.read() }
        _ = await unwatched.value("a") { await gate.read() }
        #expect(await gate.reads == 2, "nothing is kept or shared while the watch does not hear every change")
    }

    @Test("A sign-in session kept is served until it is due to be touched again, and never past its longest life")
    func signInSession() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let ada = Person(id: 1, username: "ada", name: "Ada Lovelace", createdAt: now)
        let kept = KeptSignInSession(person: ada, lastUsed: now, startedAt: now)
        #expect(kept.person(at: now + SignInSession.touchInterval - 1) == ada)
        #expect(kept.person(at: now + SignInSession.touchInterval) == nil)
        let old = KeptSignInSession(person: ada, lastUsed: now, startedAt: now - SignInSession.longestLife + 60)
        #expect(old.person(at: now + 59) == ada)
        #expect(old.person(at: now + 60) == nil)
    }

    @Test("A profile is given only to its owner; a change of one person's profiles leaves another's pages")
    func profiles() {
        let memo = ProfileMemo(watch: AloneOnData())
        var profile = Profile.new(named: "Kept")
        profile.id = 7
        memo.profiles.keep(.init(owner: 1, profile: profile), for: 7, from: memo.profiles.value(7).read)
        #expect(memo.profiles.value(7).0?.owner == 1)
        let mine = ProfileMemo.ListKey(owner: 1, limit: 50, offset: 0)
        let theirs = ProfileMemo.ListKey(owner: 2, limit: 50, offset: 0)
        let page = ProfileListPage(profiles: [profile], total: 1)
        memo.pages.keep(page, for: mine, from: memo.pages.value(mine).read)
        memo.pages.keep(page, for: theirs, from: memo.pages.value(theirs).read)
        memo.forgetPages(of: 2)
        #expect(memo.pages.value(mine).0 == page)
        #expect(memo.pages.value(theirs).0 == nil)
        memo.forget(owner: 1)
        #expect(memo.pages.value(mine).0 == nil)
        #expect(memo.profiles.value(7).0 == nil)
    }
}
