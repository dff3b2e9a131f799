import Foundation
import SanghaCore

/// The profile editor: the name, then the sections Time, Warm Up and Cool Down, in that order,
/// and the whole session's length.
public struct ProfileEditorViewModel: Sendable, Equatable, Encodable {
    public static let conflictMessage =
        "This profile was changed elsewhere after you opened it. Your values are below: save again to keep them, or reload the page to see the other changes."
    static let storageAlert = AlertViewModel(
        title: "Not saved.", message: "Profiles could not be read or saved. Your values are below: please try again.")

    public let layout: LayoutViewModel
    public let heading: String
    public let actionURL: String
    public let deleteURL: String
    public let deleteConfirmation: String
    public let listURL: String = Paths.profiles.url
    /// The sitting page for this profile.
    public let sitURL: String
    public let version: Int
    public let nameField: FormFieldViewModel
    public let sections: [ProfileSectionViewModel]
    public let totalText: String
    public let alert: AlertViewModel?

    /// The editor for `profile`. After a failed submit, `input` holds what was typed (shown
    /// instead of the stored values) and `errors` the messages by field.
    public init(
        profile: Profile,
        context: PageContext,
        input: ProfileFormInput? = nil,
        errors: [ProfileField: String] = [:],
        alert: AlertViewModel? = nil
    ) {
        let values = input?.fields ?? [:]
        let title = profile.displayName
        layout = LayoutViewModel(title: title, section: .profiles, context: context)
        heading = title
        actionURL = Paths.profile.url(profile.id)
        deleteURL = Paths.deleteProfile.url(profile.id)
        sitURL = Paths.sit.url(profile.id)
        deleteConfirmation = "Delete the profile \(title)?"
        version = profile.version
        nameField = FormFieldViewModel(
            names: ProfileField.name.names,
            label: "Name",
            value: values[.name] ?? profile.name,
            error: errors[.name],
            maxLength: Profile.nameLengthLimit
        )
        sections = [SegmentType.main, .warmUp, .coolDown].map {
            ProfileSectionViewModel(segment: profile[$0], values: values, errors: errors)
        }
        totalText = DurationFormatter.string(from: profile.totalDuration)
        self.alert = alert
    }

    /// What `GET /profiles/{id}` shows.
    public static func load(id: Int, from repository: any ProfileRepository, context: PageContext) async
        -> LoadOutcome<ProfileEditorViewModel>
    {
        do {
            guard let profile = try await repository.get(id: id) else { return .notFound }
            return .page(ProfileEditorViewModel(profile: profile, context: context))
        } catch {
            return .failed(.profilesUnavailable(error, context: context), .storage)
        }
    }

    /// Saves the whole form over the profile it was loaded from.
    ///
    /// Invalid: every typed value kept, each message by its field. Saved elsewhere since the form
    /// was loaded: the person's values kept and the stored version taken on, so that saving
    /// again is a deliberate overwrite. The storage failing: the values kept with an alert.
    public static func submit(
        id: Int,
        _ input: ProfileFormInput,
        to repository: any ProfileRepository,
        context: PageContext
    ) async -> SubmitOutcome<ProfileEditorViewModel> {
        let context = context.withoutFlash
        let stored: Profile
        do {
            guard let profile = try await repository.get(id: id) else { return .notFound }
            stored = profile
        } catch {
            var unread = Profile.new(named: "")
            (unread.id, unread.version) = (id, input.version ?? 0)
            return .failed(storageFailure(input.applied(to: unread).profile, input, error, context), .storage)
        }
        var loaded = stored
        // A post that does not say which version it was loaded from overwrites (version 0).
        loaded.version = input.version ?? 0
        let (profile, errors) = input.applied(to: loaded)
        guard errors.isEmpty else {
            return .invalid(ProfileEditorViewModel(profile: profile, context: context, input: input, errors: errors))
        }
        do {
            _ = try await repository.update(profile)
            return .redirect(Redirect(to: Paths.profile.url(id), flash: .success("Profile saved.")))
        } catch .conflict(let current) {
            var kept = profile
            kept.version = current.version
            let alert = AlertViewModel(title: "Not saved.", message: conflictMessage)
            return .conflict(ProfileEditorViewModel(profile: kept, context: context, input: input, alert: alert))
        } catch .notFound {
            return .notFound
        } catch {
            return .failed(storageFailure(profile, input, error, context), .storage)
        }
    }

    /// The form again with what was typed and an alert: a failed save loses nothing.
    private static func storageFailure(
        _ profile: Profile, _ input: ProfileFormInput, _ error: any Error, _ context: PageContext
    ) -> ProfileEditorViewModel {
        let alert =
            StorageMessage.isUnreachable(error)
            ? AlertViewModel(title: "Not saved.", message: StorageMessage.unreachable + " Your values are below.")
            : storageAlert
        return ProfileEditorViewModel(profile: profile, context: context, input: input, alert: alert)
    }
}
