import Foundation
import SanghaCore

/// One section of the profile editor: Time, Warm Up or Cool Down.
///
/// The seed's rows-per-section rule as data: Time shows the meditation's duration; Warm Up and
/// Cool Down show their switch, and when it is on, their duration and sounds too.
public struct ProfileSectionViewModel: Sendable, Equatable, Encodable {
    public let title: String
    public let headingID: String
    public let hasSwitch: Bool
    public let switchName: String
    public let switchID: String
    public let isOn: Bool
    public let showsDetails: Bool
    public let durationField: FormFieldViewModel
    public let sounds: [SoundRowViewModel]
    public let hasSounds: Bool

    static let durationHint = "mm:ss, h:mm:ss or whole minutes"

    init(segment: Segment, values: (String) -> String?, errors: [String: String]) {
        let key = segment.type.formKey
        title = segment.type.title
        headingID = "section-\(key)"
        hasSwitch = segment.type != .main
        switchName = "\(key).enabled"
        switchID = "field-\(key)-enabled"
        isOn = segment.type == .main || segment.enabled
        showsDetails = isOn
        durationField = FormFieldViewModel(
            name: "\(key).duration",
            label: segment.type == .main ? "Duration" : "\(segment.type.title) duration",
            value: values("\(key).duration") ?? DurationFormatter.string(from: segment.duration),
            error: errors["\(key).duration"],
            hint: Self.durationHint,
            maxLength: 9
        )
        sounds =
            (segment.type == .main || !isOn)
            ? []
            : segment.sounds.map { SoundRowViewModel(sound: $0, segment: segment.type, values: values, errors: errors) }
        hasSounds = !sounds.isEmpty
    }
}

/// A sound of a segment: its switch, which sound, and for the repeating one how often.
public struct SoundRowViewModel: Sendable, Equatable, Encodable {
    public let label: String
    public let enabledName: String
    public let enabledID: String
    public let isEnabled: Bool
    public let nameName: String
    public let nameID: String
    public let nameLabel: String
    public let options: [SoundOptionViewModel]
    public let nameError: String?
    public let hasNameError: Bool
    public let nameErrorID: String
    public let isRepeating: Bool
    public let intervalField: FormFieldViewModel?
    public let iterationsField: FormFieldViewModel?

    init(sound: Sound, segment: SegmentType, values: (String) -> String?, errors: [String: String]) {
        let key = "\(segment.formKey).\(sound.type.rawValue)"
        let idKey = "\(segment.formKey)-\(sound.type.rawValue)"
        label = sound.type.label
        enabledName = "\(key).enabled"
        enabledID = "field-\(idKey)-enabled"
        isEnabled = sound.enabled
        nameName = "\(key).name"
        nameID = "field-\(idKey)-name"
        nameLabel = "\(sound.type.label) in \(segment.title)"
        let selected = values("\(key).name") ?? sound.name
        options = SoundCatalogue.names.map { SoundOptionViewModel(value: $0, label: $0, isSelected: $0 == selected) }
        nameError = errors["\(key).name"]
        hasNameError = nameError != nil
        nameErrorID = "field-\(idKey)-name-error"
        isRepeating = sound.type == .repeat
        if sound.type == .repeat {
            intervalField = FormFieldViewModel(
                name: "\(key).interval",
                label: "Every",
                value: values("\(key).interval") ?? DurationFormatter.string(from: sound.interval),
                error: errors["\(key).interval"],
                hint: ProfileSectionViewModel.durationHint,
                maxLength: 9
            )
            iterationsField = FormFieldViewModel(
                name: "\(key).iterations",
                label: "Strokes",
                value: values("\(key).iterations") ?? "\(sound.iterations)",
                error: errors["\(key).iterations"],
                maxLength: 2
            )
        } else {
            intervalField = nil
            iterationsField = nil
        }
    }
}

/// One choice of the sound catalogue in a select.
public struct SoundOptionViewModel: Sendable, Equatable, Encodable {
    public let value: String
    public let label: String
    public let isSelected: Bool
}

extension SoundType {
    var label: String {
        switch self {
        case .begin: "Begin sound"
        case .end: "End sound"
        case .repeat: "Repeating sound"
        }
    }
}
