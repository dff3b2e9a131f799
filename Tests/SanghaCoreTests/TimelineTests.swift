import SanghaCore
import Testing

@Suite("Timeline: when each section begins and each sound rings")
struct TimelineTests {
    /// A profile whose sounds are all off, to turn on one by one.
    static func silent(main: Int = 600) -> Profile {
        var profile = Profile.new(named: "T")
        profile.duration = main
        for segment in SegmentType.allCases {
            for sound in SoundType.allCases { profile[segment][sound: sound].enabled = false }
        }
        return profile
    }

    @Test("A new profile: the meditation alone, its begin and end sounds at 00:00 and 07:30")
    func newProfile() {
        let timeline = Profile.new(named: "Morning").timeline
        #expect(timeline.sections == [.init(segment: .main, start: 0, duration: 450)])
        #expect(timeline.rings.map(\.time) == [0, 450])
        #expect(timeline.rings.map(\.sound) == [.begin, .end])
        #expect(timeline.rings.allSatisfy { $0.strokes == 1 && $0.name == "Bell" })
        #expect(timeline.duration == 450)
    }

    @Test("Warm Up, the meditation and Cool Down follow each other; an end rings before the next begin")
    func sectionsInOrder() {
        var profile = Profile.new(named: "Full")
        profile[.warmUp].enabled = true
        profile[.coolDown].enabled = true
        profile[.coolDown].duration = 120
        let timeline = profile.timeline
        #expect(timeline.sections.map(\.segment) == [.warmUp, .main, .coolDown])
        #expect(timeline.sections.map(\.start) == [0, 300, 750])
        #expect(timeline.duration == 870)
        let atFiveMinutes = timeline.rings.filter { $0.time == 300 }
        #expect(atFiveMinutes.map(\.segment) == [.warmUp, .main])
        #expect(atFiveMinutes.map(\.sound) == [.end, .begin])
    }

    @Test("Sections that are off take no time and ring nothing, whatever their sounds")
    func offSections() {
        var profile = Profile.new(named: "T")
        profile[.warmUp].enabled = false
        profile[.warmUp][sound: .repeat].enabled = true
        #expect(profile.timeline.sections.map(\.segment) == [.main])
        #expect(profile.timeline.rings.allSatisfy { $0.segment == .main })
    }

    @Test("The repeating sound rings every interval within its section, with its strokes, never at or past the end")
    func repeating() {
        var profile = Self.silent(main: 600)
        profile[.main][sound: .repeat] = Sound(type: .repeat, enabled: true, name: "Gong", iterations: 3, interval: 200)
        #expect(profile.timeline.rings.map(\.time) == [200, 400])  // not 600: the section ends there
        #expect(profile.timeline.rings.allSatisfy { $0.strokes == 3 && $0.name == "Gong" })
        profile[.main][sound: .repeat].interval = 250
        #expect(profile.timeline.rings.map(\.time) == [250, 500])
    }

    @Test("An interval as long as its section or longer never rings", arguments: [600, 601, 86_400])
    func longInterval(interval: Int) {
        var profile = Self.silent(main: 600)
        profile[.main][sound: .repeat] = Sound(type: .repeat, enabled: true, interval: interval)
        #expect(profile.timeline.rings.isEmpty)
    }

    @Test("One-second sections: begin and end a second apart, each section after the last")
    func oneSecond() {
        var profile = Self.silent(main: 1)
        profile[.warmUp] = Segment(type: .warmUp, enabled: true, duration: 1)
        profile[.main][sound: .begin].enabled = true
        profile[.main][sound: .end].enabled = true
        let timeline = profile.timeline
        #expect(timeline.sections.map(\.start) == [0, 1])
        #expect(timeline.duration == 2)
        #expect(
            timeline.rings.map { "\($0.segment) \($0.sound) \($0.time)" } == [
                "warmUp begin 0", "warmUp end 1", "main begin 1", "main end 2",
            ])
    }

    @Test("Disabled sounds are not in the timeline")
    func disabledSounds() {
        var profile = Self.silent()
        #expect(profile.timeline.rings.isEmpty)
        profile[.main][sound: .end].enabled = true
        #expect(profile.timeline.rings.map(\.sound) == [.end])
    }
}
