import Foundation
import SanghaCore
import Testing

/// The repositories' contract, the same on every backend.
@Suite("Repository contract")
struct RepositoryConformanceTests {
    @Test("Profiles: create, get, list by name, update, delete", arguments: Backend.available)
    func crud(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let store = try await storage.open().profiles
            let morning = try await store.create(.new(named: "morning"))
            let evening = try await store.create(.new(named: "Evening"))
            #expect(morning.id == 1 && evening.id == 2)
            #expect(morning.version == 1)
            #expect(try await store.list().map(\.name) == ["Evening", "morning"])

            var changed = morning
            changed.duration = 1200
            changed[.warmUp].enabled = true
            changed[.warmUp][sound: .repeat].interval = 30
            let updated = try await store.update(changed)
            #expect(updated.version == 2)
            #expect(try await store.get(id: morning.id) == updated)
            #expect(try await storage.open().profiles.get(id: morning.id) == updated)

            #expect(try await store.delete(id: evening.id))
            #expect(!(try await store.delete(id: evening.id)))
            #expect(try await store.get(id: evening.id) == nil)
            #expect(try await store.create(.new(named: "Noon")).id == 3)  // an id is never reused
        }
    }

    @Test("Profiles: a page by name, ignoring case, with how many there are in all", arguments: Backend.available)
    func listPages(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let store = try await storage.open().profiles
            #expect(try await store.list(limit: 2, offset: 0) == ProfileListPage(profiles: [], total: 0))
            for name in ["delta", "Alpha", "charlie", "Bravo", "echo"] { _ = try await store.create(.new(named: name)) }
            let first = try await store.list(limit: 2, offset: 0)
            #expect(first.profiles.map(\.name) == ["Alpha", "Bravo"])
            #expect(first.total == 5)
            let last = try await store.list(limit: 2, offset: 4)
            #expect(last.profiles.map(\.name) == ["echo"])
            #expect(last.total == 5)
            #expect(try await store.list(limit: 2, offset: 10) == ProfileListPage(profiles: [], total: 5))
        }
    }

    @Test("The storage answers a ping (GET /health/ready asks it)", arguments: Backend.available)
    func ping(_ backend: Backend) async throws {
        try await backend.withStorage { storage in try await storage.open().data.ping() }
    }

    @Test("Profiles: a page read again shows every change since", arguments: Backend.available)
    func listFollowsChanges(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            // Creates, saves, a failed save and a delete, each followed by the page again.
            let store = try await storage.open().profiles
            let morning = try await store.create(.new(named: "Morning"))
            #expect(try await store.list(limit: 50, offset: 0).profiles.map(\.name) == ["Morning"])
            let evening = try await store.create(.new(named: "Evening"))
            #expect(try await store.list(limit: 50, offset: 0).profiles.map(\.name) == ["Evening", "Morning"])
            var renamed = morning
            renamed.name = "Dawn"
            renamed[.main].duration = 1_200
            let saved = try await store.update(renamed)
            let page = try await store.list(limit: 50, offset: 0)
            #expect(page.profiles == [saved, evening])
            #expect(page.profiles[0].duration == 1_200)
            var stale = morning
            stale.name = "Stale"
            await #expect(throws: ProfileRepositoryError.self) { try await store.update(stale) }
            #expect(try await store.list(limit: 50, offset: 0).profiles.map(\.name) == ["Dawn", "Evening"])
            #expect(try await store.delete(id: evening.id))
            #expect(try await store.list(limit: 50, offset: 0) == ProfileListPage(profiles: [saved], total: 1))
            #expect(try await storage.open().profiles.list(limit: 50, offset: 0).total == 1)
        }
    }

    @Test(
        "Profiles: saving over a newer version is a conflict with what is stored; nothing changes",
        arguments: Backend.available)
    func conflict(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let store = try await storage.open().profiles
            let loaded = try await store.create(.new(named: "Morning"))
            var first = loaded
            first.name = "Saved first"
            _ = try await store.update(first)
            var second = loaded
            second.name = "Saved second, from the old version"
            await #expect(
                throws: ProfileRepositoryError.conflict(
                    current: {
                        var p = first; p.version = 2; return p
                    }())
            ) {
                try await store.update(second)
            }
            #expect(try await store.get(id: loaded.id)?.name == "Saved first")
        }
    }

    @Test(
        "Profiles: of concurrent saves of one version from two instances, exactly one wins",
        arguments: Backend.available
    )
    func concurrentSaves(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let (one, two) = (try await storage.open().profiles, try await storage.open().profiles)
            let loaded = try await one.create(.new(named: "Morning"))
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        var profile = loaded
                        profile.name = "Save \(index)"
                        return (try? await (index.isMultiple(of: 2) ? one : two).update(profile)) != nil
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            let stored = try #require(try await two.get(id: loaded.id))
            #expect(stored.version == 2)
            #expect(stored.name.hasPrefix("Save "))
        }
    }

    @Test(
        "Profiles: another person's profile is not found by its id, also once its owner's read keeps it",
        arguments: Backend.available)
    func notAnothers(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let bo = try await stores.people.create(Stores.person("bo"), passwordHash: "x")
            let bos = stores.data.profiles(of: bo.id)
            let morning = try await bos.create(.new(named: "Morning"))
            #expect(try await stores.profiles.get(id: morning.id) == nil, "before anyone read it")
            #expect(try await bos.get(id: morning.id)?.name == "Morning")
            #expect(try await stores.profiles.get(id: morning.id) == nil, "after its owner read it")
            #expect(try await bos.get(id: morning.id)?.name == "Morning")
        }
    }

    @Test("Profiles: a save of a profile that is gone is not found; version 0 overwrites", arguments: Backend.available)
    func missingAndUnversioned(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let store = try await storage.open().profiles
            var ghost = Profile.new(named: "Ghost")
            (ghost.id, ghost.version) = (42, 1)
            await #expect(throws: ProfileRepositoryError.notFound) { try await store.update(ghost) }

            let created = try await store.create(.new(named: "Morning"))
            var changed = created
            changed.name = "Changed"
            _ = try await store.update(changed)
            var blind = created
            (blind.version, blind.name) = (0, "Blind")
            let saved = try await store.update(blind)
            #expect(saved.name == "Blind" && saved.version == 3)
        }
    }

    @Test(
        "Sessions: one read, corrected (same id, totals follow), deleted; read oldest first a page at a time; never another's",
        arguments: Backend.available)
    func correctAndPage(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let start = Date(timeIntervalSince1970: 1_794_981_600)
            var recorded: [SittingSession] = []
            // Two at the same instant: the id orders them.
            for (index, offset) in [0, 3600, 3600, 7200, 10800].enumerated() {
                recorded.append(
                    try await stores.sessions.record(
                        SittingSession(
                            profileID: nil, profileName: "S\(index)", startedAt: start + TimeInterval(offset),
                            seconds: 600, completed: true, note: index == 0 ? "Rain; «calm»" : nil)))
            }
            #expect(try await stores.sessions.session(id: recorded[0].id) == recorded[0])
            #expect(try await stores.sessions.session(id: 999_999) == nil)

            var corrected = recorded[1]
            corrected.seconds = 1800
            corrected.note = "longer"
            corrected.profileName = "Walking"
            #expect(try await stores.sessions.update(corrected))
            #expect(try await storage.open().sessions.session(id: corrected.id) == corrected)
            #expect(try await stores.sessions.totals() == SittingTotals(sessions: 5, seconds: 4 * 600 + 1800))
            var missing = corrected
            missing.id = 999_999
            #expect(try await !stores.sessions.update(missing))

            // Oldest first, two at a time, after each page's last.
            var pages: [[Int]] = []
            var cursor: SittingSession.Cursor?
            while true {
                let page = try await stores.sessions.sessions(after: cursor, limit: 2)
                if page.isEmpty { break }
                pages.append(page.map(\.id))
                cursor = page.last?.cursor
            }
            #expect(pages.flatMap { $0 } == recorded.map(\.id) && pages.count == 3)

            // Another person's: not found, not changed, not deleted, not listed.
            let other = try await stores.people.create(Stores.person("grace"), passwordHash: "x")
            let theirs = stores.data.sessions(of: other.id)
            #expect(try await theirs.session(id: recorded[0].id) == nil)
            #expect(try await !theirs.update(recorded[0]))
            #expect(try await !theirs.delete(id: recorded[0].id))
            #expect(try await theirs.sessions(after: nil, limit: 10).isEmpty)

            #expect(try await stores.sessions.delete(id: recorded[0].id))
            #expect(try await !stores.sessions.delete(id: recorded[0].id))
            #expect(try await stores.sessions.totals() == SittingTotals(sessions: 4, seconds: 3 * 600 + 1800))
            #expect(
                try await stores.sessions.sessions(after: nil, limit: 10).map(\.id) == recorded.dropFirst().map(\.id))
        }
    }

    @Test(
        "Sessions imported: counted first (nothing kept), then added in one go; none twice, from the file or stored",
        arguments: Backend.available)
    func importSessions(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let start = Date(timeIntervalSince1970: 1_794_981_600)
            let stored = try await stores.sessions.record(
                SittingSession(profileID: nil, profileName: "Zazen", startedAt: start, seconds: 600, completed: true))
            let file = [
                SittingSession(profileID: nil, profileName: "Zazen", startedAt: start, seconds: 600, completed: true),
                SittingSession(
                    profileID: nil, profileName: "Walking", startedAt: start + 3600, seconds: 900, completed: false,
                    groupName: "Zen", note: "Slow"),
                SittingSession(
                    profileID: nil, profileName: "Walking", startedAt: start + 3600, seconds: 900, completed: false),
                SittingSession(profileID: nil, profileName: "Zazen", startedAt: start, seconds: 1200, completed: true),
            ]
            #expect(
                try await stores.sessions.importSessions(file, commit: false)
                    == SittingSession.ImportCount(added: 2, existing: 2))
            #expect(try await stores.sessions.totals() == SittingTotals(sessions: 1, seconds: 600), "nothing kept")
            #expect(
                try await stores.sessions.importSessions(file, commit: true)
                    == SittingSession.ImportCount(added: 2, existing: 2))
            let all = try await storage.open().sessions.sessions(after: nil, limit: 10)
            #expect(all.count == 3 && all.first?.id == stored.id)
            #expect(all.contains { $0.profileName == "Walking" && $0.note == "Slow" && $0.groupName == "Zen" })
            #expect(try await stores.sessions.totals() == SittingTotals(sessions: 3, seconds: 2700))
            #expect(
                try await stores.sessions.importSessions(file, commit: true)
                    == SittingSession.ImportCount(added: 0, existing: 4))
            // Another person's sessions are not theirs to match.
            let other = try await stores.people.create(Stores.person("grace"), passwordHash: "x")
            #expect(
                try await stores.data.sessions(of: other.id).importSessions(file, commit: false)
                    == SittingSession.ImportCount(added: 3, existing: 1))

            // A history may grow to `limit` and no further: past it, nothing is added, preview or not.
            let more = [
                SittingSession(
                    profileID: nil, profileName: "Zazen", startedAt: start + 7200, seconds: 600, completed: true),
                SittingSession(
                    profileID: nil, profileName: "Zazen", startedAt: start + 9000, seconds: 600, completed: true),
            ]
            for commit in [false, true] {
                await #expect(throws: SittingSessionRepositoryError.historyFull(sessions: 3)) {
                    try await stores.sessions.importSessions(more, commit: commit, limit: 4)
                }
            }
            #expect(try await stores.sessions.totals().sessions == 3)
            #expect(
                try await stores.sessions.importSessions(more, commit: true, limit: 5)
                    == SittingSession.ImportCount(added: 2, existing: 0))
        }
    }

    @Test(
        "A file previewed for import: kept byte for byte for its person alone until it expires or is forgotten, a newer one replacing it; gone with the account; anyone's expired ones deleted when a file is kept",
        arguments: Backend.available)
    func keptImport(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let ada = stores.sessions
            let now = Date(timeIntervalSince1970: 1_795_000_000)
            // Every byte value, and as large as a file may be.
            let file = Data((0..<PracticeLogImport.uploadLimit).map { UInt8(truncatingIfNeeded: $0 * 7) })
            try await ada.keepImport(file, key: "ada-1", at: now, expiresAt: now + 3600)
            #expect(try await ada.keptImport(key: "ada-1", at: now) == file)
            #expect(try await storage.open().sessions.keptImport(key: "ada-1", at: now + 3599) == file)
            #expect(try await ada.keptImport(key: "ada-1", at: now + 3600) == nil, "expired")
            #expect(try await ada.keptImport(key: "ada-2", at: now) == nil)

            let grace = try await stores.people.create(Stores.person("grace"), passwordHash: "hash-of-grace")
            let graces = stores.data.sessions(of: grace.id)
            #expect(try await graces.keptImport(key: "ada-1", at: now) == nil, "Ada's is Ada's")
            try await graces.forgetImport(key: "ada-1")
            #expect(try await ada.keptImport(key: "ada-1", at: now) == file, "nor can Grace forget it")
            try await graces.keepImport(Data("grace".utf8), key: "grace-1", at: now, expiresAt: now + 3600)
            // A newer file of Ada's replaces her older one, not Grace's.
            try await ada.keepImport(Data("newer".utf8), key: "ada-2", at: now + 10, expiresAt: now + 3610)
            #expect(try await ada.keptImport(key: "ada-1", at: now + 10) == nil)
            #expect(try await ada.keptImport(key: "ada-2", at: now + 10) == Data("newer".utf8))
            #expect(try await graces.keptImport(key: "grace-1", at: now + 10) == Data("grace".utf8))
            try await ada.forgetImport(key: "ada-2")
            #expect(try await ada.keptImport(key: "ada-2", at: now + 10) == nil)
            // Deleting Grace deletes her file with her (the database refuses to orphan it).
            try await stores.people.delete(id: grace.id)
            #expect(try await graces.keptImport(key: "grace-1", at: now + 10) == nil)
            #expect(try await storage.pendingImportRows() == 0)

            // A file that has expired is deleted by the next file anyone keeps; one that has not
            // stays.
            let hedy = try await stores.people.create(Stores.person("hedy"), passwordHash: "hash-of-hedy")
            let hedys = stores.data.sessions(of: hedy.id)
            try await ada.keepImport(file, key: "ada-3", at: now, expiresAt: now + 3600)
            try await hedys.keepImport(Data("hedy".utf8), key: "hedy-1", at: now + 3599, expiresAt: now + 7199)
            #expect(try await storage.pendingImportRows() == 2, "Ada's has a second to go")
            try await hedys.keepImport(Data("hedy".utf8), key: "hedy-2", at: now + 3600, expiresAt: now + 7200)
            #expect(try await storage.pendingImportRows() == 1, "Ada's expired: gone; Hedy's first replaced")
            #expect(try await hedys.keptImport(key: "hedy-2", at: now + 3600) == Data("hedy".utf8))
            try await ada.keepImport(Data("ada".utf8), key: "ada-4", at: now + 3600, expiresAt: now + 7200)
            #expect(try await storage.pendingImportRows() == 2, "Hedy's has not expired: kept")
        }
    }

    @Test(
        "A large import is added whole though it is written in parts, and again adds nothing",
        arguments: Backend.available)
    func largeImport(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            let file = (0..<501).map {
                SittingSession(
                    profileID: nil, profileName: "Zazen", startedAt: start + Double($0) * 86_400, seconds: 600 + $0,
                    completed: $0 % 2 == 0, groupName: $0 % 3 == 0 ? "Zen" : nil, note: $0 == 7 ? "Seventh" : nil)
            }
            #expect(
                try await stores.sessions.importSessions(file, commit: true)
                    == SittingSession.ImportCount(added: 501, existing: 0))
            #expect(
                try await stores.sessions.totals()
                    == SittingTotals(sessions: 501, seconds: file.reduce(0) { $0 + $1.seconds }))
            #expect(
                try await stores.sessions.importSessions(file, commit: true)
                    == SittingSession.ImportCount(added: 0, existing: 501))
            let kept = try await stores.sessions.sessions(after: nil, limit: 2_000)
            #expect(kept.map(\.startedAt) == file.map(\.startedAt))
            #expect(kept[7].note == "Seventh" && kept[3].groupName == "Zen" && kept[1].completed == false)
        }
    }

    @Test(
        "Sessions: newest first, paged, totalled, counted by day; a deleted profile's stay under its name; a group's name kept",
        arguments: Backend.available)
    func sessions(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            #expect(try await stores.sessions.totals() == SittingTotals(sessions: 0, seconds: 0))
            let profile = try await stores.profiles.create(.new(named: "Morning"))
            let start = Date(timeIntervalSince1970: 1_794_981_600)
            var recorded: [SittingSession] = []
            for hour in 0..<5 {
                recorded.append(
                    try await stores.sessions.record(
                        SittingSession(
                            profileID: hour < 3 ? profile.id : nil, profileName: "S\(hour)",
                            startedAt: start.addingTimeInterval(Double(hour) * 3600), seconds: 60 * (hour + 1),
                            completed: hour != 2, groupName: hour == 4 ? "Zen" : nil)))
            }
            #expect(Set(recorded.map(\.id)).count == 5 && recorded.allSatisfy { $0.id > 0 })
            #expect(try await stores.sessions.totals() == SittingTotals(sessions: 5, seconds: 900))
            #expect(try await stores.sessions.recent(limit: 10, offset: 0) == recorded.reversed())
            #expect(try await stores.sessions.recent(limit: 2, offset: 1).map(\.profileName) == ["S3", "S2"])
            #expect(try await stores.sessions.recent(limit: 2, offset: 4).map(\.profileName) == ["S0"])
            // All five on one day of Ada's (UTC, 1 Nov 2026 from 06:00): one day of 900 s.
            let today = stores.person.dayClock.day(of: start)
            let practice = try await stores.sessions.practice(today: today, recent: 2, offset: 1)
            #expect(practice.sat == [Practice.Day(today, sessions: 5, seconds: 900)])
            #expect(practice.streak == 1 && practice.totals == SittingTotals(sessions: 5, seconds: 900))
            #expect(practice.recent.map(\.profileName) == ["S3", "S2"])
            #expect(try await stores.sessions.practice(today: today.advanced(by: -1), recent: 0, offset: 0).sat == [])

            #expect(try await stores.profiles.delete(id: profile.id))
            let kept = try await storage.open().sessions.recent(limit: 10, offset: 0)
            #expect(kept.map(\.profileName) == ["S4", "S3", "S2", "S1", "S0"])
            #expect(kept.allSatisfy { $0.profileID == nil })
            #expect(kept.map(\.completed) == [true, true, false, true, true])
            #expect(kept.map(\.groupName) == ["Zen", nil, nil, nil, nil])
        }
    }

    @Test(
        "Sessions: a sit posted again with its client id, by two instances at once, is recorded once; another person's same id is theirs",
        arguments: Backend.available)
    func clientIDs(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let first = try await storage.open()
            let second = try await storage.open()
            let sit = SittingSession(
                profileID: nil, profileName: "Morning", startedAt: Date(timeIntervalSince1970: 1_794_981_600),
                seconds: 600, completed: true)
            let clientID = "0b6f7c9e-3c1d-4a7e-9a52-0f3f1e0c2b77"
            // Ten posts of one sit, five through each instance, all at once.
            let recorded = try await withThrowingTaskGroup(of: SittingSession.self) { group in
                for index in 0..<10 {
                    let sessions = (index.isMultiple(of: 2) ? first : second).sessions
                    group.addTask { try await sessions.record(sit, clientID: clientID) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(recorded.map(\.id)).count == 1)
            #expect(try await first.sessions.totals() == SittingTotals(sessions: 1, seconds: 600))
            // Without a client id, or with another, a sit is another.
            _ = try await first.sessions.record(sit, clientID: nil)
            _ = try await first.sessions.record(sit, clientID: "another")
            #expect(try await first.sessions.totals() == SittingTotals(sessions: 3, seconds: 1800))
            let grace = try await first.people.create(Stores.person("grace"), passwordHash: "hash-of-grace")
            let hers = try await first.data.sessions(of: grace.id).record(sit, clientID: clientID)
            #expect(!recorded.contains { $0.id == hers.id })
            #expect(try await first.data.sessions(of: grace.id).totals() == SittingTotals(sessions: 1, seconds: 600))
        }
    }

    @Test(
        "Saved friends list: the last one saved is loaded by another instance; unchanged ones wait a minute",
        arguments: Backend.available)
    func friendList(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let store = try await storage.open().friendList
            #expect(try await store.load() == nil)
            let start = Date(timeIntervalSince1970: 1_795_000_000)
            let jane = Friend(id: 1, firstname: "Jane", lastname: "Doe", phonenumber: "123")
            let kenji = Friend(id: 2, firstname: "Kenji", lastname: "Satō", phonenumber: "456")
            try await store.save([jane], at: start)
            try await store.save([jane], at: start + 10)
            #expect(try await store.load()?.savedAt == start)
            try await store.save([jane, kenji], at: start + 20)
            #expect(
                try await storage.open().friendList.load()
                    == SavedFriendList(friends: [jane, kenji], savedAt: start + 20))
            try await store.save([jane, kenji], at: start + 80)
            #expect(try await store.load()?.savedAt == start + 80)
        }
    }

    @Test(
        "Practice: read again, it shows every change since (a sit recorded, edited, deleted, imported; a profile deleted under its sessions), and a practice is its own day's",
        arguments: Backend.available)
    func practiceReadAgain(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            // The same stores throughout: on SQLite what they keep in memory is kept as in the app.
            let stores = try await storage.open()
            let profile = try await stores.profiles.create(.new(named: "Morning"))
            let start = Date(timeIntervalSince1970: 1_794_981_600)
            let today = stores.person.dayClock.day(of: start)
            func practice(_ day: LocalDay? = nil, recent: Int = 5) async throws -> Practice {
                try await stores.sessions.practice(today: day ?? today, recent: recent, offset: 0)
            }
            #expect(try await practice().totals == .zero)
            #expect(try await practice(recent: 1).totals == .zero)
            let first = try await stores.sessions.record(
                SittingSession(
                    profileID: profile.id, profileName: "Morning", startedAt: start, seconds: 600, completed: true))
            var seen = try await practice()
            #expect(seen.totals == SittingTotals(sessions: 1, seconds: 600) && seen.streak == 1)
            #expect(seen.recent.map(\.profileID) == [profile.id])
            #expect(try await practice(recent: 1).todays == Practice.Day(today, sessions: 1, seconds: 600))
            var edited = first
            edited.seconds = 1200
            #expect(try await stores.sessions.update(edited))
            #expect(try await practice().todays.seconds == 1200)
            _ = try await stores.sessions.record(
                SittingSession(
                    profileID: nil, profileName: "Yesterday", startedAt: start.addingTimeInterval(-86_400),
                    seconds: 300, completed: true),
                clientID: "sit-1")
            seen = try await practice()
            #expect(seen.streak == 2 && seen.totals == SittingTotals(sessions: 2, seconds: 1500))
            // Two days on, the streak has ended: a practice kept for today is not that day's.
            #expect(try await practice(today.advanced(by: 2)).streak == 0)
            #expect(try await practice().streak == 2)
            #expect(try await stores.profiles.delete(id: profile.id))
            #expect(try await practice().recent.map(\.profileID) == [nil, nil])
            #expect(try await stores.sessions.delete(id: first.id))
            seen = try await practice()
            #expect(
                seen.totals == SittingTotals(sessions: 1, seconds: 300)
                    && seen.recent.map(\.profileName) == ["Yesterday"])
            #expect(try await practice(recent: 1).todays.seconds == 0)
            let imported = SittingSession(
                profileID: nil, profileName: "Imported", startedAt: start, seconds: 900, completed: true)
            _ = try await stores.sessions.importSessions([imported], commit: false)
            #expect(try await practice().totals.sessions == 1, "a preview writes nothing")
            _ = try await stores.sessions.importSessions([imported], commit: true)
            #expect(try await practice().todays.seconds == 900)
        }
    }

    @Test(
        "Sessions: counted per day of the person's time zone and day start, kept as sessions come, change and go, and counted again when the settings change",
        arguments: Backend.available)
    func practiceDays(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            var ada = stores.person
            ada.timeZone = TimeZone(identifier: "America/Santiago")!
            try await stores.people.update(ada)
            let sessions = stores.data.sessions(of: ada.id)
            // Santiago summer time began at midnight on Sunday 6 September 2026 (00:00 became
            // 01:00). A sit at 23:30 on each of the 5th to the 7th, one at 01:30 on the 7th.
            let calendar = Calendar.gregorian(in: ada.timeZone)
            func at(_ day: Int, _ hour: Int, _ minute: Int) -> Date {
                calendar.date(from: DateComponents(year: 2026, month: 9, day: day, hour: hour, minute: minute))!
            }
            var recorded: [SittingSession] = []
            for start in [at(5, 23, 30), at(6, 23, 30), at(7, 1, 30), at(7, 23, 30)] {
                recorded.append(
                    try await sessions.record(
                        SittingSession(
                            profileID: nil, profileName: "Night", startedAt: start, seconds: 1200, completed: true)))
            }
            func days(_ clock: DayClock) async throws -> [String] {
                let practice = try await sessions.practice(today: clock.day(of: at(8, 12, 0)), recent: 0, offset: 0)
                return practice.sat.map { "\($0.day) \($0.sessions) \($0.seconds)" } + ["streak \(practice.streak)"]
            }
            #expect(
                try await days(ada.dayClock) == [
                    "2026-09-05 1 1200", "2026-09-06 1 1200", "2026-09-07 2 2400", "streak 3",
                ])
            // The day starts at 03:00: the sit at 01:30 on the 7th belongs to the 6th.
            ada.dayStartHour = 3
            try await stores.people.update(ada)
            #expect(
                try await days(ada.dayClock) == [
                    "2026-09-05 1 1200", "2026-09-06 2 2400", "2026-09-07 1 1200", "streak 3",
                ])
            // In Tokyo (12 or 13 hours ahead) every sit is a morning of the next day.
            ada.timeZone = TimeZone(identifier: "Asia/Tokyo")!
            ada.dayStartHour = 0
            try await stores.people.update(ada)
            #expect(
                try await days(ada.dayClock) == [
                    "2026-09-06 1 1200", "2026-09-07 2 2400", "2026-09-08 1 1200", "streak 3",
                ])
            #expect(try await storage.open().people.credentials(id: ada.id)?.person.dayClock == ada.dayClock)
            // An edit moves a session's day, a delete takes it out; another person's days are theirs.
            var moved = recorded[0]
            moved.startedAt = at(1, 10, 0)
            #expect(try await sessions.update(moved))
            #expect(try await sessions.delete(id: recorded[3].id))
            #expect(
                try await days(ada.dayClock) == [
                    "2026-09-01 1 1200", "2026-09-07 2 2400", "streak 0",
                ])
            let grace = try await stores.people.create(
                Stores.person("grace"), passwordHash: "h", admission: .anyone, at: Date())
            #expect(
                try await stores.data.sessions(of: grace.id).practice(today: LocalDay(20_700), recent: 5, offset: 0).sat
                    == [])
            // An import counts too.
            let count = try await sessions.importSessions(
                [
                    SittingSession(
                        profileID: nil, profileName: "Old", startedAt: at(1, 8, 0), seconds: 60, completed: true)
                ],
                commit: true)
            #expect(count.added == 1)
            #expect(try await days(ada.dayClock).first == "2026-09-01 2 1260")
        }
    }
}
