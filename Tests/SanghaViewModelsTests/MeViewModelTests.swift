import Foundation
import SanghaCore
import SanghaFixtures
import SanghaStore
import SanghaTestSupport
import Testing

@testable import SanghaViewModels

@Suite("The person's own page")
struct MeViewModelTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    /// The instant a wall clock in `timeZone` shows `text` (`2026-11-23 07:00`).
    static func date(_ text: String, in timeZone: TimeZone = utc) -> Date {
        let numbers = text.split(whereSeparator: { " -:".contains($0) }).map { Int($0)! }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(
            from: DateComponents(
                year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4]))!
    }

    static func context(in timeZone: TimeZone = utc, person: Person = ada) -> PageContext {
        PageContext(formToken: "t", now: date("2026-11-23 08:00"), timeZone: timeZone, person: person)
    }

    static let ada = Person(
        id: 1, username: "ada", name: "Ada Lovelace", about: "Counts breaths.",
        createdAt: date("2026-05-10 09:00"))

    static func session(_ text: String, seconds: Int = 600, profile: Profile? = morning) -> SittingSession {
        SittingSession(
            profileID: profile?.id, profileName: profile?.name ?? "Walking", startedAt: date(text), seconds: seconds,
            completed: true)
    }

    static let morning = profile(1, "Morning")
    static let evening = profile(2, "Evening")

    static func profile(_ id: Int, _ name: String) -> Profile {
        var profile = Profile.new(named: name)
        profile.id = id
        profile.version = 1
        profile.duration = 1200
        return profile
    }

    static func friends(_ count: Int) -> [Friend] {
        (1...count).map { Friend(id: $0, firstname: "Friend", lastname: "No. \($0)", phonenumber: "+1555\($0)") }
    }

    /// The page of `person`, stored with `profiles` and `sessions`, loaded from their stores;
    /// `broken` ones fail as a broken disk would.
    static func page(
        person: Person = ada,
        profiles: [Profile] = [morning, evening],
        sessions: [SittingSession] = [],
        broken: Set<Part> = [],
        friends: FriendsRepository = FriendsRepository(remote: FakeFriendService.listing([.jane, .kenji, .amira])),
        in timeZone: TimeZone = utc
    ) async throws -> MeViewModel {
        let stored = try await StoredPerson.make(person, profiles: profiles, sessions: sessions)
        let disk = Fault(.storage)
        let profiles: any ProfileRepository =
            broken.contains(.profiles) ? Breakable(stored.profiles, fault: disk) : stored.profiles
        let sessions: any SittingSessionRepository =
            broken.contains(.sessions) ? Breakable(stored.sessions, fault: disk) : stored.sessions
        return await MeViewModel.load(
            person: stored.person, profiles: profiles, sessions: sessions, friends: friends,
            context: context(in: timeZone, person: stored.person))
    }

    enum Part { case profiles, sessions }

    @Test("The header's line counts no session, one session, and many")
    func headerSessions() async throws {
        let none = try await Self.page(sessions: [])
        #expect(none.header.sinceText == "Sitting since May 2026 · 0 sessions")
        let one = try await Self.page(sessions: [Self.session("2026-11-20 07:00")])
        #expect(one.header.sinceText == "Sitting since May 2026 · 1 session")
        let twelve = (1...12).map { Self.session("2026-11-\(String(format: "%02d", $0)) 07:00") }
        let many = try await Self.page(sessions: twelve)
        #expect(many.header.sinceText == "Sitting since May 2026 · 12 sessions")
        #expect(many.header.name == "Ada Lovelace")
        #expect(many.header.initials == "AL")
        #expect(many.layout.title == "Ada Lovelace")
        #expect(many.layout.account?.isMeCurrent == true)
    }

    @Test("Sitting since the month the account was made in the person's time zone")
    func sinceInTimeZone() async throws {
        // 31 October 2026, 23:30 UTC: already 1 November in Tokyo, still 31 October in New York.
        var person = Self.ada
        person.createdAt = Self.date("2026-10-31 23:30")
        let inUTC = try await Self.page(person: person, in: Self.utc)
        #expect(inUTC.header.sinceText == "Sitting since October 2026 · 0 sessions")
        let inTokyo = try await Self.page(person: person, in: Self.tokyo)
        #expect(inTokyo.header.sinceText == "Sitting since November 2026 · 0 sessions")
        // 1 December 2026, 02:00 UTC: 30 November, 21:00 in New York.
        person.createdAt = Self.date("2026-12-01 02:00")
        let inNewYork = try await Self.page(person: person, in: Self.newYork)
        #expect(inNewYork.header.sinceText == "Sitting since November 2026 · 0 sessions")
    }

    @Test("Sessions that cannot be counted leave the header with since when alone")
    func headerWithoutTotals() async throws {
        let page = try await Self.page(broken: [.sessions])
        #expect(page.header.sinceText == "Sitting since May 2026")
    }

    @Test("Friends: how many, and the first five of more by full name")
    func firstFiveFriends() async throws {
        let seven = try await Self.page(friends: FriendsRepository(remote: FakeFriendService.listing(Self.friends(7))))
        #expect(seven.friends.countText == "7 friends")
        #expect(seven.friends.names == (1...5).map { "Friend No. \($0)" })
        #expect(seven.friends.hasNames)
        #expect(seven.friends.allLabel == "All 7 friends")
        #expect(seven.friends.errorMessage == nil)
        let one = try await Self.page(friends: FriendsRepository(remote: FakeFriendService.listing([.jane])))
        #expect(one.friends.countText == "1 friend")
        #expect(one.friends.names == ["Jane Doe"])
        let none = try await Self.page(friends: FriendsRepository(remote: FakeFriendService.listing([])))
        #expect(none.friends.countText == "0 friends")
        #expect(!none.friends.hasNames)
    }

    @Test(
        "A failing FriendService with nothing saved: the friends panel's message, no count, no names",
        arguments: [
            (FriendServiceError.Reason.transport("down"), "Loading failed, check network connection"),
            (.unauthorized, "Please login to load your friends."),
            (.notFound, "Could not complete request, please try again."),
        ]
    )
    func friendsError(reason: FriendServiceError.Reason, message: String) async throws {
        let repository = FriendsRepository(
            remote: FakeFriendService.failing(reason), storage: try await StoredPerson.make().savedFriends)
        let page = try await Self.page(friends: repository)
        #expect(page.friends.errorMessage == message)
        #expect(page.friends.countText == nil)
        #expect(page.friends.names.isEmpty && !page.friends.hasNames)
        #expect(page.friends.savedNotice == nil)
        let panel = await FriendsPanelViewModel.load(from: repository, context: Self.context())
        #expect(page.friends.errorMessage == panel.errorMessage)
        // The other parts are whole.
        #expect(page.practice.profiles.map(\.name) == ["Evening", "Morning"])
    }

    @Test("A failing FriendService with a saved list: the saved friends, marked, with the message")
    func friendsSaved() async throws {
        let storage = try await StoredPerson.make().savedFriends
        try await storage.save([.jane, .kenji], at: Self.date("2026-11-21 07:04"))
        let repository = FriendsRepository(remote: FakeFriendService.failing(.transport("down")), storage: storage)
        let page = try await Self.page(friends: repository)
        #expect(page.friends.names == ["Jane Doe", "Kenji Satō"])
        #expect(page.friends.countText == "2 friends")
        #expect(page.friends.errorMessage == "Loading failed, check network connection")
        #expect(page.friends.savedNotice == "Showing the list saved on 21 Nov 2026 at 07:04.")
    }

    @Test("Sessions that cannot be read: the practice says so; the profiles, friends and about are whole")
    func sessionsFailure() async throws {
        let page = try await Self.page(broken: [.sessions])
        #expect(page.practice.errorMessage == HistoryViewModel.storageFailureMessage)
        #expect(!page.practice.hasPractice && !page.practice.hasSessions)
        #expect(page.practice.emptyMessage == nil)
        #expect(page.practice.sitLink == nil)
        #expect(page.practice.profiles.map(\.name) == ["Evening", "Morning"])
        #expect(page.practice.profiles.map(\.url) == ["/profiles/2", "/profiles/1"])
        #expect(page.practice.profilesCountText == "2 profiles")
        #expect(page.practice.profilesErrorMessage == nil)
        #expect(page.friends.names == ["Jane Doe", "Kenji Satō", "Amira O'Neil-Haddad"])
        #expect(page.friends.errorMessage == nil)
        #expect(page.about.text == "Counts breaths.")
    }

    @Test("Profiles that cannot be read: the profiles say so; the sessions are whole")
    func profilesFailure() async throws {
        let page = try await Self.page(sessions: [Self.session("2026-11-23 07:00")], broken: [.profiles])
        #expect(page.practice.profilesErrorMessage == ProfilesListViewModel.storageFailureMessage)
        #expect(page.practice.profilesCountText == nil)
        #expect(!page.practice.hasProfiles)
        #expect(page.practice.errorMessage == nil)
        #expect(page.practice.streakText == "1 day")
        #expect(page.practice.hasSessions)
    }

    @Test("The practice: streak, total time in words, the last three sessions newest first, the first five profiles")
    func practice() async throws {
        let sessions = [
            Self.session("2026-11-19 07:00", seconds: 600),
            Self.session("2026-11-21 07:00", seconds: 1500, profile: Self.evening),
            Self.session("2026-11-22 07:00", seconds: 1500),
            Self.session("2026-11-23 07:00", seconds: 300, profile: nil),
        ]
        let profiles = (1...7).map { Self.profile($0, "Profile \($0)") }
        let page = try await Self.page(profiles: profiles, sessions: sessions)
        #expect(page.practice.hasPractice)
        #expect(page.practice.streakText == "3 days")
        #expect(page.practice.totalTimeText == "1 h 5 min")
        #expect(
            page.practice.sessions.map(\.dateText) == [
                "Mon 23 Nov 2026, 07:00", "Sun 22 Nov 2026, 07:00", "Sat 21 Nov 2026, 07:00",
            ])
        #expect(page.practice.sessions.map(\.profileName) == ["Walking", "Morning", "Evening"])
        #expect(page.practice.sessions.map { $0.profileLink == nil } == [true, false, false])
        #expect(page.practice.sessions.map(\.durationText) == ["05:00", "25:00", "25:00"])
        #expect(page.practice.profiles.map(\.name) == (1...5).map { "Profile \($0)" })
        #expect(page.practice.profiles.first?.url == "/profiles/1")
        #expect(page.practice.profilesCountText == "7 profiles")
        #expect(page.practice.profilesLabel == "All 7 profiles")
        #expect(page.header.sinceText == "Sitting since May 2026 · 4 sessions")
    }

    @Test("A new person: no session, no profile, no friend, each part says so")
    func fresh() async throws {
        var person = Self.ada
        person.about = ""
        let page = try await Self.page(
            person: person, profiles: [], friends: FriendsRepository(remote: FakeFriendService.listing([])))
        #expect(!page.practice.hasPractice && !page.practice.hasSessions)
        #expect(page.practice.emptyMessage == "No sessions yet.")
        #expect(page.practice.sitLink == LinkViewModel(url: "/profiles", label: "Choose a profile to sit with"))
        #expect(page.practice.profilesCountText == "0 profiles")
        #expect(page.practice.profilesLabel == "Create a profile")
        #expect(page.friends.countText == "0 friends")
    }

    @Test("About: the person's own words; with none, a way to write some in Settings")
    func about() {
        var person = Self.ada
        person.about = "Sits before sunrise.\nCounts breaths."
        let written = MeAboutViewModel(person: person, words: .english)
        #expect(written.text == "Sits before sunrise.\nCounts breaths.")
        #expect(written.emptyMessage == nil && written.editLink == nil)
        for empty in ["", "  \n\t "] {
            person.about = empty
            let about = MeAboutViewModel(person: person, words: .english)
            #expect(about.text == nil)
            #expect(about.emptyMessage == "Nothing here yet.")
            #expect(about.editLink == LinkViewModel(url: "/settings", label: "Write something in Settings"))
        }
    }

    @Test("The fixtures are the states they are named for")
    func fixtures() {
        #expect(MeViewModel.Fixtures.full.layout.title == "Ada Lovelace")
        #expect(MeViewModel.Fixtures.full.header.sinceText == "Sitting since May 2026 · 6 sessions")
        #expect(MeViewModel.Fixtures.full.practice.sessions.count == 3)
        #expect(MeViewModel.Fixtures.fresh.about.emptyMessage == "Nothing here yet.")
        #expect(MeViewModel.Fixtures.friendsDown.friends.errorMessage == "Loading failed, check network connection")
        #expect(MeViewModel.Fixtures.friendsDown.friends.countText == nil)
        #expect(MeViewModel.Fixtures.hostile.header.name.contains("<script>"))
    }
}

@Suite("Settings: time zone and day start")
struct SettingsTimeZoneTests {
    @Test(
        "The usual zones' menu is kept per zone chosen (and the person's own, when not usual), with its rendering; its JSON is its options"
    )
    func menuKept() throws {
        let berlin = TimeZoneMenuViewModel.menu(own: "Europe/Berlin", posted: nil, offered: nil)
        #expect(
            TimeZoneMenuViewModel.menu(own: "Europe/Berlin", posted: nil, offered: nil).rendering === berlin.rendering)
        #expect(berlin.options.filter(\.isSelected).map(\.value) == ["Europe/Berlin"])
        #expect(berlin.options.count == DayClock.timeZoneNames.count)
        // Another zone posted (a save refused for another field shows it) is another menu.
        let tokyo = TimeZoneMenuViewModel.menu(own: "Europe/Berlin", posted: "Asia/Tokyo", offered: nil)
        #expect(tokyo.rendering !== berlin.rendering)
        #expect(tokyo.options.filter(\.isSelected).map(\.value) == ["Asia/Tokyo"])
        // A zone not offered keeps the person's: the same menu as theirs.
        #expect(
            TimeZoneMenuViewModel.menu(own: "Europe/Berlin", posted: "Mars/Olympus", offered: nil).rendering
                === berlin.rendering)
        // A person's own zone off the list is offered first, in a menu of its own.
        let pacific = TimeZoneMenuViewModel.menu(own: "US/Pacific", posted: "Europe/Berlin", offered: nil)
        #expect(
            pacific.options.first?.value == "US/Pacific" && pacific.options.count == DayClock.timeZoneNames.count + 1)
        #expect(pacific.options.filter(\.isSelected).map(\.value) == ["Europe/Berlin"])
        #expect(pacific.rendering !== berlin.rendering)
        // Other zones offered (the tests' short lists) are never kept.
        let short = TimeZoneMenuViewModel.menu(own: "UTC", posted: nil, offered: ["UTC", "Asia/Tokyo"])
        #expect(short.options.map(\.value) == ["UTC", "Asia/Tokyo"])
        #expect(
            TimeZoneMenuViewModel.menu(own: "UTC", posted: nil, offered: ["UTC", "Asia/Tokyo"]).rendering
                !== short.rendering)

        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(berlin) == encoder.encode(berlin.options))
    }

    @Test(
        "A zone from before the list (an alias) is offered, selected, and kept by a save; the list has UTC and Etc zones"
    )
    func ownZoneKept() async throws {
        let pacific = try #require(TimeZone(identifier: "US/Pacific"))
        let people = try SQLitePersonalData.inMemory().people
        let person = try await people.create(
            Person(
                username: "ada", name: "Ada", createdAt: Date(timeIntervalSince1970: 0), timeZone: pacific,
                dayStartHour: 4),
            passwordHash: "-")
        let context = PageContext(formToken: "t", now: Date(timeIntervalSince1970: 1_795_543_200), person: person)
        let page = SettingsViewModel(person: person, acceptsToken: false, context: context)
        #expect(page.timeZones.options.filter(\.isSelected).map(\.value) == ["US/Pacific"])
        #expect(page.dayStarts.filter(\.isSelected).map(\.label) == ["04:00"])
        #expect(DayClock.timeZoneNames.contains("UTC") && DayClock.timeZoneNames.contains("Etc/UTC"))
        #expect(!DayClock.timeZoneNames.contains("US/Pacific") && !DayClock.timeZoneNames.contains("EST"))

        let input = AccountInput(name: "Ada", timeZone: "US/Pacific", dayStartHour: "4")
        let outcome = await SettingsViewModel.submit(
            input, person: person, acceptsToken: false, people: people, passwords: NoHashing(), context: context)
        guard case .redirect = outcome else {
            Issue.record("expected saved, got \(outcome)")
            return
        }
        #expect(try await people.credentials(id: person.id)?.person.timeZone == pacific)
    }

    @Test(
        "An account without a password sets none without confirming at the provider, even when the page was told nothing of one (no provider, or its reads failed)"
    )
    func noPasswordFailsClosed() async throws {
        let people = try SQLitePersonalData.inMemory().people
        let person = try await people.create(
            Person(username: "grace", name: "Grace", createdAt: Date(timeIntervalSince1970: 0)), passwordHash: "")
        let now = Date(timeIntervalSince1970: 1_795_543_200)
        var unknown = PageContext(formToken: "t", now: now, person: person)
        var unconfirmed = unknown
        unconfirmed.signInProvider = "Pocket ID"
        unconfirmed.providerAccount = ProviderAccount(isConnected: true, hasPassword: false)
        var confirmed = unconfirmed
        confirmed.providerAccount?.isConfirmed = true
        unknown.providerAccount = nil
        for (context, saved) in [(unknown, false), (unconfirmed, false), (confirmed, true)] {
            let input = AccountInput(name: "Grace", currentPassword: "anything", newPassword: "quiet-river-stones-42")
            let outcome = await SettingsViewModel.submit(
                input, person: person, acceptsToken: false, people: people, passwords: NoHashing(), context: context)
            if case .redirect = outcome { #expect(saved) } else { #expect(!saved, "\(outcome)") }
            #expect(try await people.credentials(id: person.id)?.passwordHash == (saved ? "-" : ""))
        }
    }

    /// No password is typed: nothing is hashed.
    struct NoHashing: PasswordHashing {
        func hash(_ password: String, lane: HashingLane) async throws -> String { "-" }
        func verify(_ password: String, against hash: String, lane: HashingLane) async throws -> Bool { false }
        func verifyNoOne(_ password: String, lane: HashingLane) async throws {}
    }
}
