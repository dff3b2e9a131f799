import Foundation
import SanghaCore

/// The add and the edit friend form, and what submitting it leads to.
public struct FriendFormViewModel: Sendable, Equatable, Encodable {
    public enum Mode: Sendable, Equatable {
        case add
        case update(id: Int)
    }

    public let layout: LayoutViewModel
    public let heading: String
    public let actionURL: String
    public let submitLabel: String
    public let cancelURL: String = Paths.friends.url
    public let cancelLabel: String
    public let fields: [FormFieldViewModel]
    public let alert: AlertViewModel?

    public init(
        mode: Mode,
        context: PageContext,
        input: FriendFormInput = FriendFormInput(),
        errors: [FriendField: String] = [:],
        alert: AlertViewModel? = nil
    ) {
        let words = context.words
        switch mode {
        case .add:
            heading = words.friendsAdd
            actionURL = Paths.friends.url
            submitLabel = words.friendsAdd
        case .update(let id):
            heading = words.friendsEditHeading
            actionURL = Paths.friend.url(id)
            submitLabel = words.friendsSave
        }
        cancelLabel = words.friendsCancel
        layout = LayoutViewModel(title: heading, section: .friends, context: context)
        fields = FriendField.allCases.map { field in
            FormFieldViewModel(
                names: FieldNames(name: field.rawValue),
                label: field.label(words),
                value: input[field],
                error: errors[field],
                inputType: field == .phonenumber ? .tel : .text,
                autocomplete: field.autocomplete,
                // No `maxlength`: the browser would count UTF-16 code units, and refuse a name
                // the server takes (26 "é" written with a combining accent); the script counts
                // characters as the server does (`check`).
                maxLength: nil,
                check: FieldCheckViewModel(field, words: words)
            )
        }
        self.alert = alert
    }

    /// The FriendService has no call for one friend, so the edit form finds it in the list.
    public static func loadEdit(id: Int, from service: any FriendService, context: PageContext) async
        -> LoadOutcome<FriendFormViewModel>
    {
        do {
            guard let friend = try await service.listFriends().first(where: { $0.id == id }) else { return .notFound }
            return .page(
                FriendFormViewModel(mode: .update(id: id), context: context, input: FriendFormInput(friend: friend)))
        } catch {
            let page = ErrorPageViewModel(
                heading: context.words.friendsCouldNotLoad,
                message: FriendOperation.load.message(for: error.reason, words: context.words),
                context: context
            )
            return .failed(page, .remoteService)
        }
    }

    /// Checks the input, then adds or updates the friend. Nothing is sent while a field is invalid.
    ///
    /// A value that breaks a rule (checked here, or by the service) gives the form again with a
    /// message next to each field or in the alert, the typed values kept; so does a service that
    /// could not be reached or refused, with the friend gone as `.notFound`.
    public static func submit(
        _ input: FriendFormInput,
        mode: Mode,
        to service: any FriendService,
        context: PageContext
    ) async -> SubmitOutcome<FriendFormViewModel> {
        let context = context.withoutFlash
        let words = context.words
        let draft = input.draft
        let errors = draft.validationErrors(words)
        guard errors.isEmpty else {
            return .invalid(FriendFormViewModel(mode: mode, context: context, input: input, errors: errors))
        }
        do {
            switch mode {
            case .add:
                let friend = try await service.addFriend(draft)
                return .redirect(
                    Redirect(to: Paths.friends.url, flash: .success(words.friendsAdded(name: friend.fullName))))
            case .update(let id):
                let friend = try await service.updateFriend(id: id, with: draft)
                return .redirect(
                    Redirect(to: Paths.friends.url, flash: .success(words.friendsSaved(name: friend.fullName))))
            }
        } catch {
            let form = FriendFormViewModel(
                mode: mode,
                context: context,
                input: input,
                alert: operation(mode, draft).alert(for: error.reason, words: words)
            )
            switch error.reason {
            case .invalid: return .invalid(form)
            case .notFound: return .failed(form, .notFound)
            default: return .failed(form, .remoteService)
            }
        }
    }

    private static func operation(_ mode: Mode, _ draft: FriendDraft) -> FriendOperation {
        switch mode {
        case .add: .add(draft)
        case .update: .update
        }
    }
}

extension FriendDraft {
    /// The fields whose values break a rule, with the reason in `words`' language, in form order
    /// (`validationErrors()` says them in English, as the FriendService does).
    func validationErrors(_ words: Words) -> [FriendField: String] {
        var errors: [FriendField: String] = [:]
        for field in FriendField.allCases {
            if let refusal = field.refusal(of: self[field]) { errors[field] = field.message(refusal, words: words) }
        }
        return errors
    }
}

extension FriendField {
    /// The label a person reads.
    public func label(_ words: Words) -> String {
        switch self {
        case .firstname: words.friendsFirstName
        case .lastname: words.friendsLastName
        case .phonenumber: words.friendsPhoneNumber
        }
    }

    /// What the person reads when a value breaks the rule so, in `words`' language.
    public func message(_ refusal: Refusal, words: Words) -> String {
        let limit = Self.nameLengthLimit
        let digits = Self.phoneDigitsRange
        return switch (self, refusal) {
        case (.firstname, .required): words.friendsFirstNameRequired
        case (.firstname, .tooLong): words.friendsFirstNameTooLong(limit)
        case (.firstname, .notAllowed): words.friendsFirstNameNotAllowed
        case (.lastname, .required): words.friendsLastNameRequired
        case (.lastname, .tooLong): words.friendsLastNameTooLong(limit)
        case (.lastname, .notAllowed): words.friendsLastNameNotAllowed
        case (.phonenumber, .required): words.friendsPhoneNumberRequired
        case (.phonenumber, _):
            words.friendsPhoneNumberNotAllowed(
                min: words.number(digits.lowerBound), max: words.number(digits.upperBound))
        }
    }

    var autocomplete: String {
        switch self {
        case .firstname: "given-name"
        case .lastname: "family-name"
        case .phonenumber: "tel"
        }
    }
}

extension FieldCheckViewModel {
    /// `field`'s rule as the friend form applies it: the input cleaned as `FriendFormInput.draft`
    /// cleans it, then `FriendField.validate`.
    init(_ field: FriendField, words: Words) {
        let cleaning = FriendFormInput.scriptCleaning(of: field)
        self.init(
            removed: cleaning.removed, trimmed: cleaning.trimmed, maxCharacters: field.maxCharacters,
            pattern: field.pattern, requiredMessage: field.message(.required, words: words),
            tooLongMessage: field.maxCharacters == nil ? nil : field.message(.tooLong, words: words),
            notAllowedMessage: field.message(.notAllowed, words: words))
    }
}
