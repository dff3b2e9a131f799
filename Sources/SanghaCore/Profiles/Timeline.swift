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

    public struct Ring: Sendable, Equatable {
        /// Seconds from the session's start.
        public let time: Int
        public let segment: SegmentType
        public let sound: SoundType
        /// A name of the catalogue.
        public let name: String
        public let strokes: Int
    }

    public let sections: [Section]
    /// In the order they ring.
    public let rings: [Ring]

    /// The whole session, in seconds.
    public var duration: Int { sections.last?.end ?? 0 }

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
        func ring(_ sound: Sound, at time: Int, strokes: Int) {
            rings.append(
                Ring(time: time, segment: section.segment, sound: sound.type, name: sound.name, strokes: strokes))
        }
        let begin = segment[sound: .begin]
        if begin.enabled { ring(begin, at: section.start, strokes: 1) }
        let repeating = segment[sound: .repeat]
        if repeating.enabled, repeating.interval > 0 {
            for time in stride(from: section.start + repeating.interval, to: section.end, by: repeating.interval) {
                ring(repeating, at: time, strokes: max(1, repeating.iterations))
            }
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
