import Foundation
import SanghaCore

/// One section of the profile editor: Time, Warm Up or Cool Down.
///
/// The rows-per-section rule as data: Time shows the meditation's duration; Warm Up and Cool
/// Down show their switch, and when it is on, their duration and sounds too.
public struct ProfileSectionViewModel: Sendable, Equatable, Encodable {
    public let title: String
    /// The switch's label: "Warm Up on".
    public let switchLabel: String
    /// The legend of the sounds: "Sounds".
    public let soundsLabel: String
    public let headingID: String
    public let hasSwitch: Bool
    public let switchName: String
    public let switchID: String
    /// On: the section shows its duration (and sounds). Time is always on.
    public let isOn: Bool
    public let durationField: FormFieldViewModel
    public let sounds: [SoundRowViewModel]
    public let hasSounds: Bool

    /// The JSON answer keeps its shape: the labels the template reads stay out of it.
    private enum CodingKeys: String, CodingKey {
        case title, headingID, hasSwitch, switchName, switchID, isOn, durationField, sounds, hasSounds
    }

    /// `values` are what was typed, shown instead of the stored ones; `errors` the messages.
    init(segment: Segment, values: [ProfileField: String], errors: [ProfileField: String], words: Words) {
        let type = segment.type
        title = type.title(in: words)
        switchLabel = words.profilesSectionOn(section: title)
        soundsLabel = words.profilesSounds
        headingID = "section-\(type.rawValue)"
        hasSwitch = type != .main
        switchName = ProfileField.enabled(type).formName
        switchID = ProfileField.enabled(type).inputID
        isOn = type == .main || segment.enabled
        let duration = ProfileField.duration(type)
        durationField = FormFieldViewModel(
            names: duration.names,
            label: type == .main ? words.profilesDuration : words.profilesSectionDuration(section: title),
            value: values[duration] ?? DurationFormatter.string(from: segment.duration),
            error: errors[duration],
            hint: words.profilesDurationHint,
            maxLength: 9
        )
        sounds =
            (type == .main || !isOn)
            ? []
            : segment.sounds.map {
                SoundRowViewModel(sound: $0, segment: type, values: values, errors: errors, words: words)
            }
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
    /// The play button's label for a screen reader ("Play Begin sound in Warm Up"), and its text.
    public let playLabel: String
    public let playText: String
    public let options: [SoundOptionViewModel]
    public let nameError: String?
    public let hasNameError: Bool
    public let nameErrorID: String
    /// The repeating sound's interval and strokes; nil for the begin and end sounds.
    public let repetition: RepetitionViewModel?

    /// The JSON answer keeps its shape: the play button's words stay out of it.
    private enum CodingKeys: String, CodingKey {
        case label, enabledName, enabledID, isEnabled, nameName, nameID, nameLabel, options, nameError, hasNameError
        case nameErrorID, repetition
    }

    init(
        sound: Sound, segment: SegmentType, values: [ProfileField: String], errors: [ProfileField: String],
        words: Words
    ) {
        let enabled = ProfileField.soundEnabled(segment, sound.type)
        let name = ProfileField.soundName(segment, sound.type)
        label = sound.type.label(in: words)
        enabledName = enabled.formName
        enabledID = enabled.inputID
        isEnabled = sound.enabled
        nameName = name.formName
        nameID = name.inputID
        nameLabel = words.profilesSoundInSection(sound: label, section: segment.title(in: words))
        playLabel = words.profilesPlaySound(sound: nameLabel)
        playText = words.profilesPlay
        let selected = values[name] ?? sound.name
        options = SoundOptionViewModel.catalogue(selected: selected, words: words)
        nameError = errors[name]
        hasNameError = nameError != nil
        nameErrorID = name.names.errorID
        repetition =
            sound.type == .repeat
            ? RepetitionViewModel(sound: sound, segment: segment, values: values, errors: errors, words: words) : nil
    }
}

/// How often the repeating sound rings: every interval, so many strokes.
public struct RepetitionViewModel: Sendable, Equatable, Encodable {
    public let interval: FormFieldViewModel
    public let iterations: FormFieldViewModel

    init(
        sound: Sound, segment: SegmentType, values: [ProfileField: String], errors: [ProfileField: String],
        words: Words
    ) {
        interval = FormFieldViewModel(
            names: ProfileField.interval(segment).names,
            label: words.profilesEvery,
            value: values[.interval(segment)] ?? DurationFormatter.string(from: sound.interval),
            error: errors[.interval(segment)],
            hint: words.profilesDurationHint,
            maxLength: 9
        )
        iterations = FormFieldViewModel(
            names: ProfileField.iterations(segment).names,
            label: words.profilesStrokes,
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

    /// Every sound of the catalogue, `selected` marked, each labelled in `words`' language: for
    /// a catalogue sound, a list made once a language and shared by every select that shows it.
    static func catalogue(selected: String, words: Words) -> [SoundOptionViewModel] {
        catalogues[words.language]?[selected] ?? options(selected: selected, words: words)
    }

    private static let catalogues = Dictionary(
        uniqueKeysWithValues: Language.allCases.map { language in
            let words = Words(language)
            return (
                language,
                Dictionary(
                    uniqueKeysWithValues: SoundCatalogue.names.map { ($0, options(selected: $0, words: words)) })
            )
        })

    private static func options(selected: String, words: Words) -> [SoundOptionViewModel] {
        SoundCatalogue.names.map {
            SoundOptionViewModel(
                value: $0, label: SoundCatalogue.label(of: $0, words: words), isSelected: $0 == selected,
                soundURL: SoundCatalogue.path(of: $0))
        }
    }
}

extension SoundType {
    /// The sound's kind as the editor names it: "Begin sound".
    func label(in words: Words) -> String {
        switch self {
        case .begin: words.profilesBeginSound
        case .end: words.profilesEndSound
        case .repeat: words.profilesRepeatingSound
        }
    }
}
