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
    public let autocomplete: String
    public let maxLength: Int
    /// The rule the browser's script checks as the person types (`name`, `phone`), the same
    /// rule the server applies; nil for fields only the server checks.
    public let clientRule: String?
    public let hasClientRule: Bool

    public init(
        name: String,
        label: String,
        value: String,
        error: String? = nil,
        hint: String? = nil,
        inputType: InputType = .text,
        autocomplete: String = "off",
        maxLength: Int,
        clientRule: String? = nil
    ) {
        self.name = name
        self.label = label
        self.value = value
        self.error = error
        self.hasError = error != nil
        self.hint = hint
        self.hasHint = hint != nil
        let inputID = Self.inputID(forName: name)
        self.inputID = inputID
        self.errorID = "\(inputID)-error"
        self.hintID = "\(inputID)-hint"
        let described = [hint == nil ? nil : "\(inputID)-hint", error == nil ? nil : "\(inputID)-error"]
        self.describedBy = described.contains { $0 != nil } ? described.compactMap { $0 }.joined(separator: " ") : nil
        self.inputType = inputType
        self.autocomplete = autocomplete
        self.maxLength = maxLength
        self.clientRule = clientRule
        self.hasClientRule = clientRule != nil
    }

    /// `field-` and the field's name, dots as dashes: `warmUp.duration` → `field-warmUp-duration`.
    public static func inputID(forName name: String) -> String {
        "field-" + String(name.map { $0 == "." ? "-" : $0 })
    }

    /// The `type` of the input.
    public enum InputType: String, Sendable, Equatable, Encodable, CustomStringConvertible {
        case text
        case tel
        case password

        public var description: String { rawValue }
    }
}
