import Foundation
import SanghaCore

/// The profile editor's form as posted: the version it was loaded with, and each field's text
/// by its `ProfileField`. A checkbox that is off is absent; names the form does not have
/// (`_csrf`) are ignored.
public struct ProfileFormInput: Sendable, Equatable, Decodable {
    public var version: Int?
    public var fields: [ProfileField: String]

    public init(version: Int?, _ fields: [ProfileField: String]) {
        self.version = version
        self.fields = fields
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.singleValueContainer().decode([String: String].self)
        version = values["version"].flatMap { Int($0) }
        fields = [:]
        for (name, value) in values {
            if let field = ProfileField.byFormName[name] { fields[field] = value }
        }
    }

    public subscript(field: ProfileField) -> String? { fields[field] }

    /// The stored profile with the form's values applied, and the reasons for the values that
    /// could not be read or break a rule, in `words`' language.
    ///
    /// A segment whose details were not on the page (it was off) keeps its stored duration and
    /// sounds, so turning it off and on again loses nothing.
    public func applied(to stored: Profile, words: Words) -> (
        profile: Profile, errors: [ProfileField: String]
    ) {
        var profile = stored
        var parseErrors: [ProfileField: String] = [:]
        if let name = self[.name] { profile.name = name.trimmingCharacters(in: .whitespacesAndNewlines) }

        for type in SegmentType.allCases {
            var segment = profile[type]
            if type != .main { segment.enabled = self[.enabled(type)] != nil }
            if let text = self[.duration(type)] {
                if let seconds = DurationFormatter.seconds(from: text) {
                    segment.duration = seconds
                } else {
                    parseErrors[.duration(type)] = words.profilesEnterDuration
                }
                if type != .main { applySounds(to: &segment, errors: &parseErrors, words: words) }
            }
            profile[type] = segment
        }
        var errors = profile.validationErrors(words: words)
        errors.merge(parseErrors) { _, parse in parse }
        return (profile, errors)
    }

    private func applySounds(to segment: inout Segment, errors: inout [ProfileField: String], words: Words) {
        let type = segment.type
        for soundType in SoundType.allCases {
            var sound = segment[sound: soundType]
            sound.enabled = self[.soundEnabled(type, soundType)] != nil
            if let name = self[.soundName(type, soundType)] { sound.name = name }
            segment[sound: soundType] = sound
        }
        if let text = self[.interval(type)] {
            if let seconds = DurationFormatter.seconds(from: text) {
                segment[sound: .repeat].interval = seconds
            } else {
                errors[.interval(type)] = words.profilesEnterDuration
            }
        }
        if let text = self[.iterations(type)] {
            if let count = Int(text.trimmingCharacters(in: .whitespaces)) {
                segment[sound: .repeat].iterations = count
            } else {
                errors[.iterations(type)] = words.profilesEnterStrokes
            }
        }
    }
}

extension ProfileField {
    /// The name the form posts the field under, the one place it is spelled:
    /// `name`, `warmUp.enabled`, `main.duration`, `warmUp.begin.enabled`, `warmUp.begin.name`,
    /// `warmUp.repeat.interval`, `warmUp.repeat.iterations`.
    private var spelledName: String {
        switch self {
        case .name: "name"
        case .enabled(let segment): "\(segment.rawValue).enabled"
        case .duration(let segment): "\(segment.rawValue).duration"
        case .soundEnabled(let segment, let sound): "\(segment.rawValue).\(sound.rawValue).enabled"
        case .soundName(let segment, let sound): "\(segment.rawValue).\(sound.rawValue).name"
        case .interval(let segment): "\(segment.rawValue).\(SoundType.repeat.rawValue).interval"
        case .iterations(let segment): "\(segment.rawValue).\(SoundType.repeat.rawValue).iterations"
        }
    }

    /// The field's name and its input's, hint's and error's ids (`field-warmUp-repeat-interval`),
    /// spelled once: the heaviest editor shows forty fields, and spelling them per page was a
    /// third of its view model's time (`make bench`).
    public var names: FieldNames { Self.spellings[ordinal] }

    public var formName: String { names.name }
    public var inputID: String { names.inputID }

    /// Every field in `ordinal` order: the name, then each kind of field (in `Kind`'s order), one
    /// for each segment or each segment's sound.
    static let all: [ProfileField] =
        [.name] + SegmentType.allCases.map(ProfileField.enabled) + SegmentType.allCases.map(ProfileField.duration)
        + SegmentType.allCases.map(ProfileField.interval) + SegmentType.allCases.map(ProfileField.iterations)
        + SegmentType.allCases.flatMap { segment in SoundType.allCases.map { .soundEnabled(segment, $0) } }
        + SegmentType.allCases.flatMap { segment in SoundType.allCases.map { .soundName(segment, $0) } }

    private static let spellings = all.map { FieldNames(name: $0.spelledName) }

    /// The kinds of field in `all`'s order, and where each begins there: the name is one field,
    /// a segment's fields one a segment, a sound's one a segment and sound.
    private enum Kind: Int, CaseIterable {
        case name, enabled, duration, interval, iterations, soundEnabled, soundName

        var count: Int {
            switch self {
            case .name: 1
            case .enabled, .duration, .interval, .iterations: SegmentType.allCases.count
            case .soundEnabled, .soundName: SegmentType.allCases.count * SoundType.allCases.count
            }
        }

        static let starts: [Int] = allCases.reduce(into: [0]) { starts, kind in starts.append(starts.last! + kind.count)
        }
        var start: Int { Self.starts[rawValue] }
    }

    /// The field's place in `all` (a test holds the two together).
    var ordinal: Int {
        switch self {
        case .name: Kind.name.start
        case .enabled(let segment): Kind.enabled.start + segment.ordinal
        case .duration(let segment): Kind.duration.start + segment.ordinal
        case .interval(let segment): Kind.interval.start + segment.ordinal
        case .iterations(let segment): Kind.iterations.start + segment.ordinal
        case .soundEnabled(let segment, let sound):
            Kind.soundEnabled.start + SoundType.allCases.count * segment.ordinal + sound.ordinal
        case .soundName(let segment, let sound):
            Kind.soundName.start + SoundType.allCases.count * segment.ordinal + sound.ordinal
        }
    }

    /// Every field the editor can post: the name, each segment's duration, and for Warm Up and
    /// Cool Down their switch and sounds.
    public static let formFields: [ProfileField] =
        [.name]
        + SegmentType.allCases.flatMap { segment -> [ProfileField] in
            guard segment != .main else { return [.duration(segment)] }
            return [.enabled(segment), .duration(segment), .interval(segment), .iterations(segment)]
                + SoundType.allCases.flatMap { [.soundEnabled(segment, $0), .soundName(segment, $0)] }
        }

    static let byFormName = Dictionary(uniqueKeysWithValues: formFields.map { ($0.formName, $0) })
}

extension SegmentType {
    /// Its place in `allCases`.
    fileprivate var ordinal: Int {
        switch self {
        case .main: 0
        case .warmUp: 1
        case .coolDown: 2
        }
    }
}

extension SoundType {
    /// Its place in `allCases`.
    fileprivate var ordinal: Int {
        switch self {
        case .begin: 0
        case .end: 1
        case .repeat: 2
        }
    }
}

extension SegmentType {
    /// The section title a person reads, in English (`title(in:)`: in the page's language).
    public var title: String { title(in: .english) }

    /// The section title a person reads: Time, Warm Up or Cool Down.
    public func title(in words: Words) -> String {
        switch self {
        case .main: words.profilesSectionTime
        case .warmUp: words.profilesSectionWarmUp
        case .coolDown: words.profilesSectionCoolDown
        }
    }
}
