import Foundation
import SanghaCore
import SanghaFixtures
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
            stylesheet: "/s.css", script: "/s.js", icon: "/i.svg", sounds: ["Wood Block": "/sounds/wood-block.0a.mp3"])
        let page = SittingViewModel(profile: profile, context: PageContext(assets: assets))
        let repeats = page.events.filter { $0.strokes == 3 }
        #expect(repeats.map(\.text) == ["Wood Block rings 3 times", "Wood Block rings 3 times"])
        #expect(repeats.map(\.seconds) == [150, 300])
        #expect(repeats.allSatisfy { $0.soundURL == "/sounds/wood-block.0a.mp3" })
    }
}

@Suite("Recording a session")
struct RecordSessionTests {
    static let profile: Profile = {
        var profile = Profile.new(named: "Morning")
        (profile.id, profile.version) = (1, 1)
        return profile
    }()

    func record(_ input: SittingSessionInput, sessions: InMemorySittingSessionRepository) async
        -> SubmitOutcome<SittingViewModel>
    {
        await SittingViewModel.record(
            input, profiles: InMemoryProfileRepository([Self.profile]), sessions: sessions, context: .fixture)
    }

    @Test("A whole session is saved with the profile's name; the start is read with or without fractions")
    func saved() async {
        let sessions = InMemorySittingSessionRepository()
        for start in ["2026-11-18T06:00:00Z", "2026-11-18T06:00:00.250Z"] {
            let outcome = await record(
                SittingSessionInput(profile: "1", startedAt: start, seconds: "450", completed: "true"),
                sessions: sessions)
            #expect(outcome == .saved(Redirect(to: "/profiles/1/sit", flash: .success("Session saved."))))
        }
        let stored = await sessions.sessions
        #expect(stored.map(\.profileName) == ["Morning", "Morning"])
        #expect(stored[0].startedAt == Date(timeIntervalSince1970: 1_794_981_600))
    }

    @Test("A broken disk shows the page with why (503), a short stop says it is not recorded (422)")
    func refused() async {
        let failing = await record(
            SittingSessionInput(profile: "1", startedAt: "2026-11-18T06:00:00Z", seconds: "450", completed: "true"),
            sessions: InMemorySittingSessionRepository(failing: true))
        guard case .failed(let page, .storage) = failing else {
            Issue.record("expected a storage failure, got \(failing)")
            return
        }
        #expect(page.alert?.message == "Sessions could not be saved. Please try again.")
        let short = await record(
            SittingSessionInput(profile: "1", startedAt: "2026-11-18T06:00:00Z", seconds: "30", completed: "false"),
            sessions: InMemorySittingSessionRepository())
        guard case .invalid(let form) = short else {
            Issue.record("expected invalid, got \(short)")
            return
        }
        #expect(form.alert?.message == "A session stopped before a minute is not recorded.")
    }
}
