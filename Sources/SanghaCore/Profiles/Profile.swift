import Foundation

/// A meditation profile: a name, the meditation's duration and its segments.
///
/// A profile always has the three segments, main, warm-up and cool-down; the main one is the
/// meditation itself and is always on. `version` counts saves, so a form loaded from one
/// version cannot silently overwrite a newer one.
public struct Profile: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var name: String
    public var segments: [Segment]
    public var version: Int

    public static let nameLengthLimit = 60
    /// Durations run from 1 second to 24 hours.
    public static let durationRange = 1...86_400

    public init(id: Int = 0, name: String, segments: [Segment], version: Int = 0) {
        self.id = id
        self.name = name
        self.segments = segments
        self.version = version
    }

    /// A new profile: a 07:30 meditation, with Warm Up and Cool Down off at 05:00 each.
    public static func new(named name: String) -> Profile {
        Profile(
            name: name,
            segments: [
                Segment(type: .main, enabled: true, duration: 450),
                Segment(type: .warmUp, enabled: false, duration: 300),
                Segment(type: .coolDown, enabled: false, duration: 300),
            ]
        )
    }

    /// Its name as pages show it: "Profile" for one without a name.
    public var displayName: String { name.isEmpty ? "Profile" : name }

    /// The meditation's duration: the main segment's.
    public var duration: Int {
        get { self[.main].duration }
        set { self[.main].duration = newValue }
    }

    /// The whole session: the warm-up and cool-down when on, and the meditation.
    public var totalDuration: Int {
        var total = 0
        for segment in segments where segment.type == .main || segment.enabled { total += segment.duration }
        return total
    }

    public subscript(type: SegmentType) -> Segment {
        get { segments.first { $0.type == type } ?? Segment(type: type, enabled: type == .main, duration: 300) }
        set {
            if let index = segments.firstIndex(where: { $0.type == type }) {
                segments[index] = newValue
            } else {
                segments.append(newValue)
            }
        }
    }

    /// Every rule the profile breaks, by field, in `words`' language. Empty when the profile is
    /// valid.
    public func validationErrors(words: Words) -> [ProfileField: String] {
        var errors: [ProfileField: String] = [:]
        if let message = Self.validateName(name, words: words) { errors[.name] = message }
        for segment in segments {
            guard Self.durationRange.contains(segment.duration) else {
                errors[.duration(segment.type)] = words.profilesDurationRange
                continue
            }
            for sound in segment.sounds where sound.enabled {
                if !SoundCatalogue.contains(sound.name) {
                    errors[.soundName(segment.type, sound.type)] = words.profilesChooseSound
                }
                guard sound.type == .repeat else { continue }
                if sound.interval < 1 || sound.interval > segment.duration {
                    errors[.interval(segment.type)] = words.profilesIntervalRange
                }
                if !Sound.iterationsRange.contains(sound.iterations) {
                    errors[.iterations(segment.type)] = words.profilesStrokesRange
                }
            }
        }
        return errors
    }

    /// Why `name` cannot name a profile, or nil; in `words`' language.
    public static func validateName(_ name: String, words: Words) -> String? {
        switch NameProblem(name, limit: nameLengthLimit) {
        case nil: nil
        case .required: words.profilesNameRequired
        case .tooLong(let limit): words.profilesNameTooLong(limit: words.number(limit))
        case .control: words.profilesNameControl
        case .direction: words.profilesNameDirection
        }
    }
}

/// What breaks the rules of a name a person gives (a profile's, a group's, a session's "What"):
/// the same rules for each, which each form says in its own words.
public enum NameProblem: Sendable, Equatable {
    case required
    case tooLong(limit: Int)
    case control
    case direction

    /// What is wrong with `name`, trimmed, as a name of at most `limit` characters; nil when
    /// nothing is.
    public init?(_ name: String, limit: Int) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty {
            self = .required
        } else if trimmed.count > limit {
            self = .tooLong(limit: limit)
        } else if trimmed.unicodeScalars.contains(where: \.isControl) {
            self = .control
        } else if trimmed.unicodeScalars.contains(where: \.isDirectionOverride) {
            self = .direction
        } else {
            return nil
        }
    }
}

/// A value of a profile that a person sets and a rule may apply to: the key of a rule's message,
/// and of the form field that edits the value.
public enum ProfileField: Hashable, Sendable {
    case name
    /// Whether Warm Up or Cool Down is on (the meditation itself always is).
    case enabled(SegmentType)
    case duration(SegmentType)
    case soundEnabled(SegmentType, SoundType)
    case soundName(SegmentType, SoundType)
    /// The repeating sound's interval and strokes.
    case interval(SegmentType)
    case iterations(SegmentType)
}
