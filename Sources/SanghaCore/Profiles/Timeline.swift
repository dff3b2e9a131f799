import Foundation

/// What happens when a profile is sat with, second by second: its sections in order and every
/// sound with the time it rings. The one place these rules live; the sitting page lists them
/// and its script schedules them.
///
/// - Sections: Warm Up (when on), the meditation, Cool Down (when on), one after another.
/// - In each section, its enabled sounds: the begin sound at its start; the repeating sound
///   every `interval` seconds after the start while the section lasts (not at its end, nor
///   after it: an interval as long as the section or longer never rings), `iterations` strokes
///   each time; the end sound at its end.
/// - The repeating sound is one `Ring` however often it rings: its `time` is its first ring
///   (the section's start plus the interval) and its `repetition` says the rest (every
///   `interval` seconds while strictly before the section's end), so a 24-hour section that
///   rings every second is one ring here, not 86,399. `times` lists every second it rings.
/// - Where one section ends and the next begins, the end sound comes before the begin sound.
public struct Timeline: Sendable, Equatable {
    public struct Section: Sendable, Equatable {
        public let segment: SegmentType
        /// Seconds from the session's start.
        public let start: Int
        public let duration: Int

        public init(segment: SegmentType, start: Int, duration: Int) {
            (self.segment, self.start, self.duration) = (segment, start, duration)
        }

        public var end: Int { start + duration }
    }

    /// A sound that rings once (begin, end), or the repeating sound with all its rings.
    public struct Ring: Sendable, Equatable {
        /// Seconds from the session's start: when it rings, or, for the repeating sound, when it
        /// rings first.
        public let time: Int
        public let segment: SegmentType
        public let sound: SoundType
        /// A name of the catalogue.
        public let name: String
        public let strokes: Int
        /// How the repeating sound goes on after `time`; nil for a sound that rings once.
        public let repetition: Repetition?

        /// The repeating sound's rhythm: at `time`, then every `interval` seconds while strictly
        /// before `end`.
        public struct Repetition: Sendable, Equatable {
            /// Seconds between two rings, more than 0.
            public let interval: Int
            /// The end of its section, in seconds from the session's start: it never rings there
            /// nor after.
            public let end: Int
        }

        /// Every second it rings at, in order: `time` alone for a sound that rings once.
        public var times: StrideTo<Int> {
            guard let repetition else { return stride(from: time, to: time + 1, by: 1) }
            return stride(from: time, to: repetition.end, by: repetition.interval)
        }

    }

    public let sections: [Section]
    /// In the order they first ring.
    public let rings: [Ring]

    /// The whole session, in seconds.
    public var duration: Int { sections.last?.end ?? 0 }

    /// The whole session of `profile`, in seconds, as its timeline counts it (`duration`),
    /// without making its sections and rings: a group's page asks it of every sit several times.
    public static func duration(of profile: Profile) -> Int {
        var total = 0
        for type in [SegmentType.warmUp, .main, .coolDown] {
            let segment = profile[type]
            if type == .main || segment.enabled { total += max(0, segment.duration) }
        }
        return total
    }

    public init(profile: Profile) {
        var sections: [Section] = []
        var rings: [Ring] = []
        var start = 0
        for type in [SegmentType.warmUp, .main, .coolDown] {
            let segment = profile[type]
            guard type == .main || segment.enabled else { continue }
            let section = Section(segment: type, start: start, duration: max(0, segment.duration))
            sections.append(section)
            rings += Self.rings(of: segment, in: section)
            start = section.end
        }
        self.sections = sections
        self.rings = rings
    }

    private static func rings(of segment: Segment, in section: Section) -> [Ring] {
        var rings: [Ring] = []
        func ring(_ sound: Sound, at time: Int, strokes: Int, repetition: Ring.Repetition? = nil) {
            rings.append(
                Ring(
                    time: time, segment: section.segment, sound: sound.type, name: sound.name, strokes: strokes,
                    repetition: repetition))
        }
        let begin = segment[sound: .begin]
        if begin.enabled { ring(begin, at: section.start, strokes: 1) }
        let repeating = segment[sound: .repeat]
        // Only when it rings at least once: the first ring strictly before the section's end.
        if repeating.enabled, repeating.interval > 0, repeating.interval < section.duration {
            ring(
                repeating, at: section.start + repeating.interval, strokes: max(1, repeating.iterations),
                repetition: Ring.Repetition(interval: repeating.interval, end: section.end))
        }
        let end = segment[sound: .end]
        if end.enabled { ring(end, at: section.end, strokes: 1) }
        return rings
    }
}

extension Profile {
    /// When each section begins and each sound rings (see `Timeline`).
    public var timeline: Timeline { Timeline(profile: self) }
}
