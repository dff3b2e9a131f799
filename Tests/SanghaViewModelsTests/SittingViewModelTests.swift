import Foundation
import SanghaCore
import SanghaFixtures
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import Testing

@Suite("Sitting page view model")
struct SittingViewModelTests {
    @Test("Rows in time order: a section's end sound before the next section begins, the end last")
    func rows() {
        var profile = Profile.new(named: "Full")
        profile[.warmUp].enabled = true
        profile[.warmUp][sound: .end].name = "Gong"
        let page = SittingViewModel(profile: profile, context: .fixture)
        #expect(
            page.events.map { "\($0.timeText) \($0.text)" } == [
                "00:00 Warm Up begins", "00:00 Bell rings", "05:00 Gong rings", "05:00 Time begins", "05:00 Bell rings",
                "12:30 Bell rings", "12:30 The session ends",
            ])
        #expect(page.totalSeconds == 750)
        #expect(page.totalText == "12:30")
        #expect(
            page.events.filter(\.hasSound).map(\.soundURL) == [
                "/sounds/bell.mp3", "/sounds/gong.mp3", "/sounds/bell.mp3", "/sounds/bell.mp3",
            ])
    }

    @Test("A repeating sound's row says how many strokes; sounds come from the server's addresses")
    func strokesAndAddresses() {
        var profile = Profile.new(named: "T")
        profile[.main][sound: .repeat] = Sound(
            type: .repeat, enabled: true, name: "Wood Block", iterations: 3, interval: 150)
        let assets = AssetURLs(
            stylesheet: "/s.css", script: "/s.js", icon: "/i.svg", touchIcon: "/t.png",
            sounds: ["Wood Block": "/sounds/wood-block.0a.mp3"])
        let page = SittingViewModel(profile: profile, context: PageContext(assets: assets))
        let repeats = page.events.filter { $0.strokes == 3 }
        #expect(repeats.map(\.text) == ["Wood Block rings 3 times every 02:30 from 02:30 to 07:30"])
        #expect(repeats.map(\.seconds) == [150])
        #expect(repeats.allSatisfy { $0.soundURL == "/sounds/wood-block.0a.mp3" })
    }

    @Test("A repeating sound is one row: its first ring, its interval and its section's end, for the script")
    func repeatingRow() throws {
        var profile = Profile.new(named: "Full")
        profile[.warmUp].enabled = true
        profile[.warmUp][sound: .repeat] = Sound(
            type: .repeat, enabled: true, name: "Gong", iterations: 2, interval: 60)
        let page = SittingViewModel(profile: profile, context: .fixture)
        #expect(
            page.events.map { "\($0.timeText) \($0.text)" } == [
                "00:00 Warm Up begins", "00:00 Bell rings", "01:00 Gong rings 2 times every 01:00 from 01:00 to 05:00",
                "05:00 Bell rings", "05:00 Time begins", "05:00 Bell rings", "12:30 Bell rings",
                "12:30 The session ends",
            ])
        let row = try #require(page.events.first { $0.repeats })
        #expect(row.seconds == 60 && row.interval == 60 && row.until == 300 && row.strokes == 2)
        #expect(row.soundURL == "/sounds/gong.mp3")
        // What the script says at each ring, handed to it as data: it never reads the sentence.
        #expect(row.says == "Gong rings 2 times")
        #expect(
            page.events.map(\.says) == [
                "Warm Up begins", "Bell rings", "Gong rings 2 times", "Bell rings", "Time begins", "Bell rings",
                "Bell rings", "The session ends",
            ])
        #expect(page.events.filter(\.repeats).count == 1)
        #expect(page.events.filter { !$0.repeats }.allSatisfy { $0.interval == 0 && $0.until == 0 })
    }

    @Test("Times of an hour or more read h:mm:ss in a repeating row")
    func repeatingRowInHours() {
        var profile = Profile.new(named: "Long")
        profile.duration = 86_400
        profile[.main][sound: .repeat] = Sound(type: .repeat, enabled: true, interval: 3600)
        let page = SittingViewModel(profile: profile, context: .fixture)
        #expect(page.events.filter(\.repeats).map(\.text) == ["Bell rings every 01:00:00 from 01:00:00 to 24:00:00"])
    }

    @Test("A day ringing every second is a few rows, not one a second: the page stays small")
    func dayLongRepeat() throws {
        var profile = Profile.new(named: "Day")
        profile.duration = 86_400
        profile[.main][sound: .repeat] = Sound(type: .repeat, enabled: true, iterations: 10, interval: 1)
        let page = SittingViewModel(profile: profile, context: .fixture)
        #expect(page.events.count <= 10)
        #expect(page.events.count == 5)  // Time begins, its begin sound, the repeat, its end sound, the end
        #expect(page.totalSeconds == 86_400)
        let row = try #require(page.events.first { $0.repeats })
        #expect(row.text == "Bell rings 10 times every 00:01 from 00:01 to 24:00:00")
        #expect(row.seconds == 1 && row.interval == 1 && row.until == 86_400)

        // The longest profile there is: three 24-hour sections, every sound on, each repeating
        // every second.
        for type in [SegmentType.warmUp, .coolDown] {
            profile[type].enabled = true
            profile[type].duration = 86_400
        }
        for type in SegmentType.allCases {
            for sound in SoundType.allCases { profile[type][sound: sound].enabled = true }
            profile[type][sound: .repeat].interval = 1
        }
        let longest = SittingViewModel(profile: profile, context: .fixture)
        #expect(longest.events.count == 13)  // each section 4 rows, and the end
        #expect(try JSONEncoder().encode(longest).count < 20_000)
    }
}

@Suite("Recording a session")
struct RecordSessionTests {
    static let profile: Profile = {
        var profile = Profile.new(named: "Morning")
        (profile.id, profile.version) = (1, 1)
        return profile
    }()

    /// Ada, with her profile Morning (1).
    static func ada() async throws -> StoredPerson {
        try await StoredPerson.make(profiles: [Self.profile])
    }

    func record(_ input: SittingSessionInput, sessions: any SittingSessionRepository, of ada: StoredPerson) async
        -> SubmitOutcome<SittingViewModel>
    {
        await SittingViewModel.record(input, profiles: ada.profiles, sessions: sessions, context: .fixture)
    }

    @Test("A whole session is saved with the profile's name; the start is read with or without fractions")
    func saved() async throws {
        let ada = try await Self.ada()
        for start in ["2026-11-18T06:00:00Z", "2026-11-18T06:00:00.250Z"] {
            let outcome = await record(
                SittingSessionInput(profile: "1", startedAt: start, seconds: "450", completed: "true"),
                sessions: ada.sessions, of: ada)
            #expect(outcome == .redirect(Redirect(to: "/profiles/1/sit", flash: .success("Session saved."))))
        }
        let stored = try await ada.sessions.all()
        #expect(stored.map(\.profileName) == ["Morning", "Morning"])
        #expect(stored[0].startedAt == Date(timeIntervalSince1970: 1_794_981_600))
    }

    @Test("A broken disk shows the page with why (503), a short stop says it is not recorded (422)")
    func refused() async throws {
        let ada = try await Self.ada()
        let failing = await record(
            SittingSessionInput(profile: "1", startedAt: "2026-11-18T06:00:00Z", seconds: "450", completed: "true"),
            sessions: Breakable(ada.sessions, fault: Fault(.storage)), of: ada)
        guard case .failed(let page, .storage) = failing else {
            Issue.record("expected a storage failure, got \(failing)")
            return
        }
        #expect(page.alert?.message == "Sessions could not be saved. Please try again.")
        let short = await record(
            SittingSessionInput(profile: "1", startedAt: "2026-11-18T06:00:00Z", seconds: "30", completed: "false"),
            sessions: ada.sessions, of: ada)
        guard case .invalid(let form) = short else {
            Issue.record("expected invalid, got \(short)")
            return
        }
        #expect(form.alert?.message == "A session stopped before a minute is not recorded.")
        #expect(try await ada.sessions.all().isEmpty)
    }

    @Test("A profile that cannot be read is 503 with why, never a 404: the page's script keeps the sit")
    func profileUnreadable() async throws {
        let ada = try await Self.ada()
        let outcome = await SittingViewModel.record(
            SittingSessionInput(
                profile: "1", profileName: "Morning", startedAt: "2026-11-18T06:00:00Z", seconds: "450",
                completed: "true"),
            profiles: Breakable(ada.profiles, fault: Fault(.storage)), sessions: ada.sessions, context: .fixture)
        guard case .unavailable(let page, .storage) = outcome else {
            Issue.record("expected the storage's failure, got \(outcome)")
            return
        }
        #expect(page.heading == "The session was not saved")
        #expect(page.message == "Sessions could not be saved. Please try again.")
        #expect(try await ada.sessions.all().isEmpty)
    }

    @Test("A sit whose profile is gone is recorded under the name the page posted, without the profile")
    func profileGone() async throws {
        let ada = try await StoredPerson.make()
        // Profile 1 is Bob's, in the same database.
        let bob = try await ada.data.people.create(
            Person(username: "bob", name: "Bob", createdAt: Date(timeIntervalSince1970: 1_790_000_000)),
            passwordHash: "-")
        try await ada.data.store(profiles: [Self.profile], of: bob.id)
        // Deleted while the sit waited on the device; or never this person's (their profiles are
        // theirs alone): either way gone, and answered alike.
        for id in ["7", "1"] {
            let outcome = await SittingViewModel.record(
                SittingSessionInput(
                    profile: id, profileName: "  Evening  ", startedAt: "2026-11-18T06:00:00Z", seconds: "450",
                    completed: "true", clientId: "sit-\(id)"),
                profiles: ada.profiles, sessions: ada.sessions, context: .fixture)
            #expect(outcome == .redirect(Redirect(to: "/history", flash: .success("Session saved."))))
        }
        let stored = try await ada.sessions.all()
        #expect(stored.map(\.profileName) == ["Evening", "Evening"])
        #expect(stored.allSatisfy { $0.profileID == nil && $0.seconds == 450 && $0.completed })
    }

    @Test("A profile still there keeps the sit under its own name and id, whatever name was posted")
    func profileThere() async throws {
        let ada = try await Self.ada()
        let outcome = await record(
            SittingSessionInput(
                profile: "1", profileName: "Renamed since", startedAt: "2026-11-18T06:00:00Z", seconds: "450",
                completed: "true"),
            sessions: ada.sessions, of: ada)
        #expect(outcome == .redirect(Redirect(to: "/profiles/1/sit", flash: .success("Session saved."))))
        #expect(try await ada.sessions.all().map(\.profileName) == ["Morning"])
        #expect(try await ada.sessions.all().map(\.profileID) == [1])
    }

    @Test("A gone profile's posted name is checked as any name; a page older than it keeps the sit as \"Profile\"")
    func goneProfileName() async throws {
        let ada = try await StoredPerson.make()
        func record(name: String?, seconds: String = "450") async -> SubmitOutcome<SittingViewModel> {
            await SittingViewModel.record(
                SittingSessionInput(
                    profile: "7", profileName: name, startedAt: "2026-11-18T06:00:00Z", seconds: seconds,
                    completed: "true"),
                profiles: ada.profiles, sessions: ada.sessions, context: .fixture)
        }
        for (name, why) in [
            ("   ", "Name is required."), (String(repeating: "a", count: 61), "Name must be at most 60 characters."),
            ("Eve\u{7}ning", "Name cannot contain control characters."),
        ] {
            let outcome = await record(name: name)
            guard case .unavailable(let page, .invalid) = outcome else {
                Issue.record("expected invalid for \(name.debugDescription), got \(outcome)")
                continue
            }
            #expect(page.message == why)
        }
        // No page to show again: why, as a page of its own (422).
        guard case .unavailable(let page, .invalid) = await record(name: "Evening", seconds: "0") else {
            Issue.record("expected invalid for a sit of 0 seconds")
            return
        }
        #expect(page.message == "The session's length must be between 1 second and 72 hours.")
        #expect(try await ada.sessions.all().isEmpty)
        #expect(await record(name: nil) == .redirect(Redirect(to: "/history", flash: .success("Session saved."))))
        #expect(try await ada.sessions.all().map(\.profileName) == ["Profile"])
    }

    @Test("A session sat more than 30 days before the clock (2026-11-18 11:06:40) is refused, nothing stored")
    func tooOld() async throws {
        let ada = try await Self.ada()
        for start in ["2026-10-19T11:05:00Z", "2026-01-01T06:00:00Z"] {
            let outcome = await record(
                SittingSessionInput(profile: "1", startedAt: start, seconds: "60", completed: "true"),
                sessions: ada.sessions, of: ada)
            guard case .invalid(let page) = outcome else {
                Issue.record("expected invalid for \(start), got \(outcome)")
                continue
            }
            #expect(page.alert?.message == SittingSession.tooOldMessage)
        }
        let recent = await record(
            SittingSessionInput(profile: "1", startedAt: "2026-10-19T11:06:00Z", seconds: "60", completed: "true"),
            sessions: ada.sessions, of: ada)
        #expect(recent == .redirect(Redirect(to: "/profiles/1/sit", flash: .success("Session saved."))))
        let stored = try await ada.sessions.all()
        #expect(stored.count == 1)
    }
}
