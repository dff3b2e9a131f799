import Foundation

/// One labelled input of a form, with what was typed and the message about it.
public struct FormFieldViewModel: Sendable, Equatable, Encodable {
    public let name: String
    public let label: String
    public let value: String
    public let error: String?
    public let hasError: Bool
    /// A short help text under the label, e.g. the formats a duration accepts.
    public let hint: String?
    public let hasHint: Bool
    public let hintID: String
    /// The ids of the hint and the error, for `aria-describedby`; nil when there are neither.
    public let describedBy: String?
    /// `id` of the input (`field-` and the name, dots as dashes); the error's and the hint's
    /// ids add `-error` and `-hint`.
    public let inputID: String
    public let errorID: String
    public let inputType: InputType
    /// What the browser may fill in; nil for no attribute at all (a date and time: axe takes
    /// any value there, "off" too, for a mistake).
    public let autocomplete: String?
    /// The browser's `maxlength`; nil where HTML allows none (a date and time), or where it
    /// would refuse what the server takes (it counts UTF-16 code units, not characters).
    public let maxLength: Int?
    /// The rule the browser's script checks as the person leaves the field, as data: the same
    /// rule the server applies, with its words. nil for fields only the server checks.
    public let check: FieldCheckViewModel?
    /// Whether the browser should refuse the form while the field is empty.
    public let isRequired: Bool
    /// How many lines the field shows: 1, a one-line input; more, a text area.
    public let lines: Int
    public let isMultiline: Bool

    /// A field named by `names` (`FieldNames(name:)`, or spelled once beforehand, as the
    /// profile editor's forty are).
    public init(
        names: FieldNames,
        label: String,
        value: String,
        error: String? = nil,
        hint: String? = nil,
        inputType: InputType = .text,
        autocomplete: String? = "off",
        maxLength: Int?,
        check: FieldCheckViewModel? = nil,
        isRequired: Bool = true,
        lines: Int = 1
    ) {
        self.isRequired = isRequired
        self.lines = lines
        self.isMultiline = lines > 1
        self.name = names.name
        self.label = label
        self.value = value
        self.error = error
        self.hasError = error != nil
        self.hint = hint
        self.hasHint = hint != nil
        self.inputID = names.inputID
        self.errorID = names.errorID
        self.hintID = names.hintID
        self.describedBy =
            switch (hint != nil, error != nil) {
            case (true, true): "\(names.hintID) \(names.errorID)"
            case (true, false): names.hintID
            case (false, true): names.errorID
            case (false, false): nil
            }
        self.inputType = inputType
        self.autocomplete = autocomplete
        self.maxLength = [.dateTimeLocal, .time].contains(inputType) ? nil : maxLength
        self.check = check
    }

    /// `field-` and the field's name, dots as dashes: `warmUp.duration` → `field-warmUp-duration`.
    public static func inputID(forName name: String) -> String {
        "field-" + String(decoding: name.utf8.map { $0 == UInt8(ascii: ".") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
    }

    /// The `type` of the input.
    public enum InputType: String, Sendable, Equatable, Encodable, CustomStringConvertible {
        case text
        case tel
        case password
        case dateTimeLocal = "datetime-local"
        case time

        public var description: String { rawValue }
    }
}

/// The name a field posts under and the ids of its input, hint and error, spelled together.
public struct FieldNames: Sendable, Equatable {
    public let name: String
    public let inputID: String
    public let hintID: String
    public let errorID: String

    public init(name: String) {
        self.name = name
        inputID = FormFieldViewModel.inputID(forName: name)
        hintID = inputID + "-hint"
        errorID = inputID + "-error"
    }
}

/// A field's rule as the page's script applies it (`Public/js/forms.js`, `check`): data, so
/// that the page refuses exactly what the server refuses, in the server's words, whatever
/// language they are in. The script takes the value, removes the `removed` characters
/// anywhere and the `trimmed` ones at either end (as the server does before it checks), then
/// refuses an empty value (`requiredMessage`), one of more than `maxCharacters` characters as
/// Swift counts them (grapheme clusters, `Intl.Segmenter` in JavaScript: `tooLongMessage`),
/// and one that `pattern` does not match (`notAllowedMessage`). Character classes and the
/// pattern are JavaScript regular expressions with the `u` flag.
public struct FieldCheckViewModel: Sendable, Equatable, Encodable {
    public let removed: String?
    public let trimmed: String?
    public let maxCharacters: Int?
    public let pattern: String
    public let requiredMessage: String
    public let tooLongMessage: String?
    public let notAllowedMessage: String

    public init(
        removed: String? = nil, trimmed: String? = nil, maxCharacters: Int? = nil, pattern: String,
        requiredMessage: String, tooLongMessage: String? = nil, notAllowedMessage: String
    ) {
        (self.removed, self.trimmed, self.maxCharacters, self.pattern) = (removed, trimmed, maxCharacters, pattern)
        (self.requiredMessage, self.tooLongMessage, self.notAllowedMessage) =
            (requiredMessage, tooLongMessage, notAllowedMessage)
    }
}
