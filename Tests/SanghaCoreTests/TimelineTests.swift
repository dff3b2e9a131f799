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

    @Test("A profile's duration counted alone is its timeline's, whichever sections are on")
    func durationAlone() {
        var profile = Profile.new(named: "T")
        for (warmUp, coolDown) in [(false, false), (true, false), (false, true), (true, true)] {
            profile[.warmUp].enabled = warmUp
            profile[.coolDown].enabled = coolDown
            profile[.coolDown].duration = 120
            #expect(Timeline.duration(of: profile) == profile.timeline.duration)
        }
        #expect(Timeline.duration(of: profile) == 300 + 450 + 120)
        profile.segments.removeAll { $0.type == .main }
        #expect(Timeline.duration(of: profile) == profile.timeline.duration, "a profile without its main segment")
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
    func repeating() throws {
        var profile = Self.silent(main: 600)
        profile[.main][sound: .repeat] = Sound(type: .repeat, enabled: true, name: "Gong", iterations: 3, interval: 200)
        let ring = try #require(profile.timeline.rings.only)
        #expect(ring.time == 200)
        #expect(ring.repetition?.interval == 200)
        #expect(ring.repetition?.end == 600)
        #expect(Array(ring.times) == [200, 400])  // not 600: the section ends there
        #expect(ring.strokes == 3 && ring.name == "Gong" && ring.sound == .repeat)
        profile[.main][sound: .repeat].interval = 250
        #expect(profile.timeline.rings.flatMap { Array($0.times) } == [250, 500])
    }

    @Test("A repeating sound is one ring however often it rings: a day ringing every second")
    func repeatingIsOneRing() throws {
        var profile = Self.silent(main: 86_400)
        profile[.main][sound: .repeat] = Sound(type: .repeat, enabled: true, interval: 1)
        let ring = try #require(profile.timeline.rings.only)
        #expect(ring.time == 1)
        #expect(ring.repetition?.interval == 1)
        #expect(ring.repetition?.end == 86_400)
        let times = Array(ring.times)
        #expect(times.count == 86_399)
        #expect(times.last == 86_399)
    }

    /// The ring times of the old timeline, one ring per interval: every `interval` after the
    /// section's start while strictly before its end.
    static func expanded(start: Int, duration: Int, interval: Int) -> [Int] {
        Array(stride(from: start + interval, to: start + duration, by: interval))
    }

    @Test(
        "The repeating sound's times are those of one ring per interval, in every section",
        arguments: [(600, 200), (600, 250), (600, 599), (600, 1), (7, 3), (2, 1), (86_400, 7), (3_601, 60)])
    func sameTimes(duration: Int, interval: Int) {
        var profile = Self.silent(main: duration)
        profile[.warmUp] = Segment(type: .warmUp, enabled: true, duration: 90)
        profile[.coolDown] = Segment(type: .coolDown, enabled: true, duration: duration)
        for segment in SegmentType.allCases {
            for sound in SoundType.allCases { profile[segment][sound: sound].enabled = false }
            profile[segment][sound: .repeat] = Sound(type: .repeat, enabled: true, interval: interval)
        }
        let timeline = profile.timeline
        #expect(timeline.sections.map(\.start) == [0, 90, 90 + duration])
        let expected = timeline.sections.flatMap {
            Self.expanded(start: $0.start, duration: $0.duration, interval: interval)
        }
        #expect(timeline.rings.flatMap { Array($0.times) } == expected)
    }

    @Test("A section's begin sound, its repeating sound, its end sound, then the next section's begin sound")
    func repeatingInOrder() {
        var profile = Profile.new(named: "T")
        profile[.warmUp].enabled = true
        profile[.warmUp].duration = 300
        profile[.warmUp][sound: .repeat] = Sound(
            type: .repeat, enabled: true, name: "Gong", iterations: 2, interval: 60)
        let rings = profile.timeline.rings
        #expect(
            rings.map { "\($0.segment) \($0.sound) \($0.time)" } == [
                "warmUp begin 0", "warmUp repeat 60", "warmUp end 300", "main begin 300", "main end 750",
            ])
        #expect(rings.map { Array($0.times).count } == [1, 4, 1, 1, 1])
        #expect(rings.filter { $0.repetition == nil }.allSatisfy { Array($0.times) == [$0.time] })
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

extension Array {
    /// The one element of a one-element array; nil for any other.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
