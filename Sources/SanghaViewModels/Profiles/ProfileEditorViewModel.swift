import Foundation
import SanghaCore

/// The profile editor: the name, then the sections Time, Warm Up and Cool Down, in that order,
/// and the whole session's length.
public struct ProfileEditorViewModel: Sendable, Equatable, Encodable {
    public static let conflictMessage =
        "This profile was changed elsewhere after you opened it. Your values are below: save again to keep them, or reload the page to see the other changes."

    public let layout: LayoutViewModel
    public let heading: String
    public let actionURL: String
    public let deleteURL: String
    public let deleteConfirmation: String
    public let listURL = "/profiles"
    public let version: Int
    public let nameField: FormFieldViewModel
    public let sections: [ProfileSectionViewModel]
    public let totalText: String
    public let alert: AlertViewModel?
    /// The CSRF token the save and delete forms carry.
    public let formToken: String

    /// The editor for `profile`. After a failed submit, `input` holds what was typed (shown
    /// instead of the stored values) and `errors` the messages by field.
    public init(
        profile: Profile,
        formToken: String,
        input: ProfileFormInput? = nil,
        errors: [ProfileField: String] = [:],
        alert: AlertViewModel? = nil,
        flash: FlashViewModel? = nil
    ) {
        let values: (String) -> String? = { input?[$0] }
        let messages = Dictionary(uniqueKeysWithValues: errors.map { ($0.key.formFieldName, $0.value) })
        layout = LayoutViewModel(
            title: profile.name.isEmpty ? "Profile" : profile.name, section: .profiles, flash: flash)
        heading = profile.name.isEmpty ? "Profile" : profile.name
        actionURL = "/profiles/\(profile.id)"
        deleteURL = "/profiles/\(profile.id)/delete"
        deleteConfirmation = "Delete the profile \(profile.name.isEmpty ? "Profile" : profile.name)?"
        version = profile.version
        nameField = FormFieldViewModel(
            name: "name",
            label: "Name",
            value: values("name") ?? profile.name,
            error: messages["name"],
            maxLength: Profile.nameLengthLimit
        )
        sections = [SegmentType.main, .warmUp, .coolDown].map {
            ProfileSectionViewModel(segment: profile[$0], values: values, errors: messages)
        }
        totalText = DurationFormatter.string(from: profile.totalDuration)
        self.alert = alert
        self.formToken = formToken
    }

    /// What `GET /profiles/{id}` shows.
    public enum Page: Sendable, Equatable {
        case editor(ProfileEditorViewModel)
        case notFound
        case failed(ErrorPageViewModel)
    }

    public static func load(
        id: Int,
        from repository: any ProfileRepository,
        formToken: String,
        flash: FlashViewModel? = nil
    ) async -> Page {
        do {
            guard let profile = try await repository.get(id: id) else { return .notFound }
            return .editor(ProfileEditorViewModel(profile: profile, formToken: formToken, flash: flash))
        } catch {
            return .failed(Self.storageFailurePage)
        }
    }

    public enum Outcome: Sendable, Equatable {
        /// Saved: back to the editor, with "Profile saved." once.
        case saved(redirectTo: String, flash: FlashViewModel)
        /// A value is unreadable or breaks a rule: every typed value kept, each message by its field.
        case invalid(ProfileEditorViewModel)
        /// Saved elsewhere since the form was loaded: the person's values kept, the stored version
        /// taken on, so that saving again is a deliberate overwrite.
        case conflict(ProfileEditorViewModel)
        case notFound
        case failed(ErrorPageViewModel)
    }

    public static func submit(
        id: Int,
        _ input: ProfileFormInput,
        to repository: any ProfileRepository,
        formToken: String
    ) async -> Outcome {
        let stored: Profile
        do {
            guard let profile = try await repository.get(id: id) else { return .notFound }
            stored = profile
        } catch {
            return .failed(storageFailurePage)
        }
        var loaded = stored
        // A post that does not say which version it was loaded from overwrites (version 0).
        loaded.version = input.version ?? 0
        let (profile, errors) = input.applied(to: loaded)
        guard errors.isEmpty else {
            return .invalid(
                ProfileEditorViewModel(profile: profile, formToken: formToken, input: input, errors: errors))
        }
        do {
            _ = try await repository.update(profile)
            return .saved(redirectTo: "/profiles/\(id)", flash: .success("Profile saved."))
        } catch .conflict(let current) {
            var kept = profile
            kept.version = current.version
            let alert = AlertViewModel(title: "Not saved.", message: conflictMessage)
            return .conflict(ProfileEditorViewModel(profile: kept, formToken: formToken, input: input, alert: alert))
        } catch .notFound {
            return .notFound
        } catch {
            return .failed(storageFailurePage)
        }
    }

    static let storageFailurePage = ErrorPageViewModel(
        status: 503,
        heading: "Profiles are unavailable",
        message: "Profiles could not be read or saved. Please try again."
    )
}
