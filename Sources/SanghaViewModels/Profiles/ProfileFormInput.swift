import Foundation
import SanghaCore

/// The profile editor's form as posted: every field by its name.
///
/// Names: `name`, `version`, `<segment>.enabled`, `<segment>.duration`,
/// `<segment>.<sound>.enabled`, `<segment>.<sound>.name`, `<segment>.repeat.interval`,
/// `<segment>.repeat.iterations`, with segments `main`, `warmUp`, `coolDown` and sounds
/// `begin`, `end`, `repeat`. A checkbox that is off is absent.
public struct ProfileFormInput: Sendable, Equatable, Decodable {
    public var values: [String: String]

    public init(_ values: [String: String]) {
        self.values = values
    }

    public init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: String].self)
    }

    public subscript(key: String) -> String? { values[key] }

    /// The version of the profile the form was loaded with.
    public var version: Int? { values["version"].flatMap { Int($0) } }

    /// The stored profile with the form's values applied, and the reasons for the values that
    /// could not be read or break a rule.
    ///
    /// A segment whose details were not on the page (it was off) keeps its stored duration and
    /// sounds, so turning it off and on again loses nothing.
    public func applied(to stored: Profile) -> (profile: Profile, errors: [ProfileField: String]) {
        var profile = stored
        var parseErrors: [ProfileField: String] = [:]
        if let name = values["name"] { profile.name = name.trimmingCharacters(in: .whitespacesAndNewlines) }

        for type in SegmentType.allCases {
            var segment = profile[type]
            let key = type.formKey
            if type != .main { segment.enabled = values["\(key).enabled"] != nil }
            if let text = values["\(key).duration"] {
                if let seconds = DurationFormatter.seconds(from: text) {
                    segment.duration = seconds
                } else {
                    parseErrors[.duration(type)] = DurationFormatter.parseFailureMessage
                }
                if type != .main { applySounds(to: &segment, errors: &parseErrors) }
            }
            profile[type] = segment
        }
        var errors = profile.validationErrors()
        errors.merge(parseErrors) { _, parse in parse }
        return (profile, errors)
    }

    private func applySounds(to segment: inout Segment, errors: inout [ProfileField: String]) {
        for soundType in SoundType.allCases {
            var sound = segment[sound: soundType]
            let key = "\(segment.type.formKey).\(soundType.rawValue)"
            sound.enabled = values["\(key).enabled"] != nil
            if let name = values["\(key).name"] { sound.name = name }
            if soundType == .repeat {
                if let text = values["\(key).interval"] {
                    if let seconds = DurationFormatter.seconds(from: text) {
                        sound.interval = seconds
                    } else {
                        errors[.interval(segment.type)] = DurationFormatter.parseFailureMessage
                    }
                }
                if let text = values["\(key).iterations"] {
                    if let count = Int(text.trimmingCharacters(in: .whitespaces)) {
                        sound.iterations = count
                    } else {
                        errors[.iterations(segment.type)] = "Enter a whole number of strokes, like 3."
                    }
                }
            }
            segment[sound: soundType] = sound
        }
    }
}

extension SegmentType {
    /// The segment's prefix in form field names.
    public var formKey: String { rawValue }

    /// The section title a person reads.
    public var title: String {
        switch self {
        case .main: "Time"
        case .warmUp: "Warm Up"
        case .coolDown: "Cool Down"
        }
    }
}

extension ProfileField {
    /// The name of the form field the message stands next to.
    public var formFieldName: String {
        switch self {
        case .name: "name"
        case .duration(let segment): "\(segment.formKey).duration"
        case .soundName(let segment, let sound): "\(segment.formKey).\(sound.rawValue).name"
        case .interval(let segment): "\(segment.formKey).repeat.interval"
        case .iterations(let segment): "\(segment.formKey).repeat.iterations"
        }
    }
}
