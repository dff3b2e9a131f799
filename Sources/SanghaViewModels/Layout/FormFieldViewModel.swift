import Foundation

/// One labelled input of a form, with what was typed and the message about it.
public struct FormFieldViewModel: Sendable, Equatable, Encodable {
    public let name: String
    public let label: String
    public let value: String
    public let error: String?
    public let hasError: Bool
    /// `id` of the input; the error's id is `<inputID>-error` for `aria-describedby`.
    public let inputID: String
    public let errorID: String
    public let inputType: String
    public let autocomplete: String
    public let maxLength: Int

    public init(
        name: String,
        label: String,
        value: String,
        error: String? = nil,
        inputType: String = "text",
        autocomplete: String = "off",
        maxLength: Int
    ) {
        self.name = name
        self.label = label
        self.value = value
        self.error = error
        self.hasError = error != nil
        self.inputID = "field-\(name)"
        self.errorID = "field-\(name)-error"
        self.inputType = inputType
        self.autocomplete = autocomplete
        self.maxLength = maxLength
    }
}
