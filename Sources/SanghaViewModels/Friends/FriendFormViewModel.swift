import Foundation
import SanghaCore

/// The add and the edit friend form, and what submitting it leads to.
public struct FriendFormViewModel: Sendable, Equatable, Encodable {
    public enum Mode: Sendable, Equatable {
        case add
        case update(id: Int)
    }

    /// Where a submit leads, as the seed's navigation and alert did.
    public enum Outcome: Sendable, Equatable {
        /// Stored: go to `redirectTo` and show `flash` there once.
        case saved(redirectTo: String, flash: FlashViewModel)
        /// The values break a rule (checked here, or by the service): the form again, with
        /// a message next to each field or in the alert, and the typed values kept.
        case invalid(FriendFormViewModel)
        /// The service could not be reached or refused: the form again with the alert. `status`
        /// is 404 when the friend is gone, else 502 (the service, not the person, failed).
        case failed(FriendFormViewModel, status: Int)
    }

    public let layout: LayoutViewModel
    public let heading: String
    public let actionURL: String
    public let submitLabel: String
    public let cancelURL = "/friends"
    public let fields: [FormFieldViewModel]
    public let alert: AlertViewModel?
    /// The CSRF token the form carries.
    public let formToken: String

    public init(
        mode: Mode,
        formToken: String,
        input: FriendFormInput = FriendFormInput(),
        errors: [FriendField: String] = [:],
        alert: AlertViewModel? = nil
    ) {
        switch mode {
        case .add:
            heading = "Add friend"
            actionURL = "/friends"
            submitLabel = "Add friend"
        case .update(let id):
            heading = "Edit friend"
            actionURL = "/friends/\(id)"
            submitLabel = "Save"
        }
        layout = LayoutViewModel(title: heading, section: .friends)
        fields = FriendField.allCases.map { field in
            FormFieldViewModel(
                name: field.rawValue,
                label: field.label,
                value: input[field],
                error: errors[field],
                inputType: field == .phonenumber ? "tel" : "text",
                autocomplete: field.autocomplete,
                maxLength: field == .phonenumber ? 30 : FriendField.nameLengthLimit,
                clientRule: field == .phonenumber ? "phone" : "name"
            )
        }
        self.alert = alert
        self.formToken = formToken
    }

    /// What `GET /friends/{id}/edit` shows.
    public enum EditPage: Sendable, Equatable {
        /// The edit form, filled with the friend's stored values.
        case form(FriendFormViewModel)
        /// No friend has that id.
        case notFound
        /// The friends could not be loaded.
        case failed(ErrorPageViewModel)
    }

    /// The FriendService has no call for one friend, so the edit form finds it in the list.
    public static func loadEdit(id: Int, from service: any FriendService, formToken: String) async -> EditPage {
        do {
            guard let friend = try await service.listFriends().first(where: { $0.id == id }) else { return .notFound }
            return .form(
                FriendFormViewModel(mode: .update(id: id), formToken: formToken, input: FriendFormInput(friend: friend))
            )
        } catch {
            let message = FriendOperation.load.message(for: error.reason)
            return .failed(ErrorPageViewModel(status: 502, heading: "Could not load this friend", message: message))
        }
    }

    /// Checks the input, then adds or updates the friend. Nothing is sent while a field is invalid.
    public static func submit(
        _ input: FriendFormInput,
        mode: Mode,
        to service: any FriendService,
        formToken: String
    ) async -> Outcome {
        let draft = input.draft
        let errors = draft.validationErrors()
        guard errors.isEmpty else {
            return .invalid(FriendFormViewModel(mode: mode, formToken: formToken, input: input, errors: errors))
        }
        do {
            switch mode {
            case .add:
                let friend = try await service.addFriend(draft)
                return .saved(redirectTo: "/friends", flash: .success("Added \(friend.fullName)."))
            case .update(let id):
                let friend = try await service.updateFriend(id: id, with: draft)
                return .saved(redirectTo: "/friends", flash: .success("Saved \(friend.fullName)."))
            }
        } catch {
            let form = FriendFormViewModel(
                mode: mode,
                formToken: formToken,
                input: input,
                alert: operation(mode, draft).alert(for: error.reason)
            )
            switch error.reason {
            case .invalid: return .invalid(form)
            case .notFound: return .failed(form, status: 404)
            default: return .failed(form, status: 502)
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

extension FriendField {
    /// The label a person reads (DESIGN.md §5).
    public var label: String {
        switch self {
        case .firstname: "First name"
        case .lastname: "Last name"
        case .phonenumber: "Phone number"
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
