import SanghaCore
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
