import Foundation
import SanghaCore

/// One section of the profile editor: Time, Warm Up or Cool Down.
///
/// The rows-per-section rule as data: Time shows the meditation's duration; Warm Up and Cool
/// Down show their switch, and when it is on, their duration and sounds too.
public struct ProfileSectionViewModel: Sendable, Equatable, Encodable {
    public let title: String
    public let headingID: String
    public let hasSwitch: Bool
    public let switchName: String
    public let switchID: String
    /// On: the section shows its duration (and sounds). Time is always on.
    public let isOn: Bool
    public let durationField: FormFieldViewModel
    public let sounds: [SoundRowViewModel]
    public let hasSounds: Bool

    static let durationHint = "mm:ss, h:mm:ss or whole minutes"

    /// `values` are what was typed, shown instead of the stored ones; `errors` the messages.
    init(segment: Segment, values: [ProfileField: String], errors: [ProfileField: String]) {
        let type = segment.type
        title = type.title
        headingID = "section-\(type.rawValue)"
        hasSwitch = type != .main
        switchName = ProfileField.enabled(type).formName
        switchID = ProfileField.enabled(type).inputID
        isOn = type == .main || segment.enabled
        let duration = ProfileField.duration(type)
        durationField = FormFieldViewModel(
            names: duration.names,
            label: type == .main ? "Duration" : "\(type.title) duration",
            value: values[duration] ?? DurationFormatter.string(from: segment.duration),
            error: errors[duration],
            hint: Self.durationHint,
            maxLength: 9
        )
        sounds =
            (type == .main || !isOn)
            ? [] : segment.sounds.map { SoundRowViewModel(sound: $0, segment: type, values: values, errors: errors) }
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
    /// The repeating sound's interval and strokes; nil for the begin and end sounds.
    public let repetition: RepetitionViewModel?

    init(sound: Sound, segment: SegmentType, values: [ProfileField: String], errors: [ProfileField: String]) {
        let enabled = ProfileField.soundEnabled(segment, sound.type)
        let name = ProfileField.soundName(segment, sound.type)
        label = sound.type.label
        enabledName = enabled.formName
        enabledID = enabled.inputID
        isEnabled = sound.enabled
        nameName = name.formName
        nameID = name.inputID
        nameLabel = "\(sound.type.label) in \(segment.title)"
        let selected = values[name] ?? sound.name
        options = SoundOptionViewModel.catalogue(selected: selected)
        nameError = errors[name]
        hasNameError = nameError != nil
        nameErrorID = name.names.errorID
        repetition =
            sound.type == .repeat
            ? RepetitionViewModel(sound: sound, segment: segment, values: values, errors: errors) : nil
    }
}

/// How often the repeating sound rings: every interval, so many strokes.
public struct RepetitionViewModel: Sendable, Equatable, Encodable {
    public let interval: FormFieldViewModel
    public let iterations: FormFieldViewModel

    init(sound: Sound, segment: SegmentType, values: [ProfileField: String], errors: [ProfileField: String]) {
        interval = FormFieldViewModel(
            names: ProfileField.interval(segment).names,
            label: "Every",
            value: values[.interval(segment)] ?? DurationFormatter.string(from: sound.interval),
            error: errors[.interval(segment)],
            hint: ProfileSectionViewModel.durationHint,
            maxLength: 9
        )
        iterations = FormFieldViewModel(
            names: ProfileField.iterations(segment).names,
            label: "Strokes",
            value: values[.iterations(segment)] ?? String(sound.iterations),
            error: errors[.iterations(segment)],
            maxLength: 2
        )
    }
}

/// One choice of the sound catalogue in a select.
public struct SoundOptionViewModel: Sendable, Equatable, Encodable {
    public let value: String
    public let label: String
    public let isSelected: Bool
    /// The sound's file, which the editor's play button plays.
    public let soundURL: String

    /// Every sound of the catalogue, `selected` marked: for a catalogue sound, a list made once
    /// and shared by every select that shows it.
    static func catalogue(selected: String) -> [SoundOptionViewModel] {
        catalogues[selected] ?? options(selected: selected)
    }

    private static let catalogues = Dictionary(
        uniqueKeysWithValues: SoundCatalogue.names.map { ($0, options(selected: $0)) })

    private static func options(selected: String) -> [SoundOptionViewModel] {
        SoundCatalogue.names.map {
            SoundOptionViewModel(
                value: $0, label: $0, isSelected: $0 == selected, soundURL: SoundCatalogue.path(of: $0))
        }
    }
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
