import Foundation
import SanghaCore

/// The profile editor: the name, then the sections Time, Warm Up and Cool Down, in that order,
/// and the whole session's length.
public struct ProfileEditorViewModel: Sendable, Equatable, Encodable {
    /// In English; the page says it in its language (`words.profilesConflict`).
    public static let conflictMessage = Words.english.profilesConflict

    public let layout: LayoutViewModel
    public let heading: String
    public let actionURL: String
    public let deleteURL: String
    public let deleteConfirmation: String
    public let deleteLabel: String
    public let listURL: String = Paths.profiles.url
    public let listLabel: String
    /// The sitting page for this profile.
    public let sitURL: String
    public let sitLabel: String
    public let version: Int
    public let nameField: FormFieldViewModel
    public let sections: [ProfileSectionViewModel]
    /// "Total session", before `totalText`.
    public let totalLabel: String
    public let totalText: String
    public let saveLabel: String
    public let alert: AlertViewModel?

    /// The JSON answer (`Accept: application/json`) keeps the shape it had before the page had
    /// languages: the labels the template reads stay out of it.
    private enum CodingKeys: String, CodingKey {
        case layout, heading, actionURL, deleteURL, deleteConfirmation, listURL, sitURL, version, nameField, sections
        case totalText, alert
    }

    /// The editor for `profile`. After a failed submit, `input` holds what was typed (shown
    /// instead of the stored values) and `errors` the messages by field.
    public init(
        profile: Profile,
        context: PageContext,
        input: ProfileFormInput? = nil,
        errors: [ProfileField: String] = [:],
        alert: AlertViewModel? = nil
    ) {
        let words = context.words
        let values = input?.fields ?? [:]
        let title = profile.displayName(words)
        layout = LayoutViewModel(title: title, section: .profiles, context: context)
        heading = words.isolated(title)
        actionURL = Paths.profile.url(profile.id)
        deleteURL = Paths.deleteProfile.url(profile.id)
        sitURL = Paths.sit.url(profile.id)
        (sitLabel, listLabel) = (words.profilesSitWithThis, words.profilesAll)
        deleteConfirmation = words.profilesDeleteConfirmation(name: title)
        (deleteLabel, saveLabel, totalLabel) = (words.profilesDelete, words.profilesSave, words.profilesTotalSession)
        version = profile.version
        nameField = FormFieldViewModel(
            names: ProfileField.name.names,
            label: words.profilesName,
            value: values[.name] ?? profile.name,
            error: errors[.name],
            maxLength: Profile.nameLengthLimit
        )
        sections = [SegmentType.main, .warmUp, .coolDown].map {
            ProfileSectionViewModel(segment: profile[$0], values: values, errors: errors, words: words)
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
            return .failed(unavailable(error, context: context), .storage)
        }
    }

    /// The 503 page of a profile that could not be read, in the page's language.
    static func unavailable(_ error: any Error, context: PageContext) -> ErrorPageViewModel {
        let words = context.words
        return ErrorPageViewModel(
            heading: words.profilesUnavailable,
            message: StorageMessage.isUnreachable(error)
                ? words.storageUnreachable : words.profilesCouldNotReadOrSave,
            context: context)
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
        let words = context.words
        let stored: Profile
        do {
            guard let profile = try await repository.get(id: id) else { return .notFound }
            stored = profile
        } catch {
            var unread = Profile.new(named: "")
            (unread.id, unread.version) = (id, input.version ?? 0)
            return .failed(
                storageFailure(input.applied(to: unread, words: words).profile, input, error, context), .storage)
        }
        var loaded = stored
        // A post that does not say which version it was loaded from overwrites (version 0).
        loaded.version = input.version ?? 0
        let (profile, errors) = input.applied(to: loaded, words: words)
        guard errors.isEmpty else {
            return .invalid(ProfileEditorViewModel(profile: profile, context: context, input: input, errors: errors))
        }
        do {
            _ = try await repository.update(profile)
            return .redirect(Redirect(to: Paths.profile.url(id), flash: .success(words.profilesSaved)))
        } catch .conflict(let current) {
            var kept = profile
            kept.version = current.version
            let alert = AlertViewModel(title: words.profilesNotSaved, message: words.profilesConflict)
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
        let words = context.words
        let alert = AlertViewModel(
            title: words.profilesNotSaved,
            message: StorageMessage.isUnreachable(error)
                ? words.profilesUnreachableValuesBelow : words.profilesStorageFailed)
        return ProfileEditorViewModel(profile: profile, context: context, input: input, alert: alert)
    }
}

extension Profile {
    /// Its name as pages show it, in `words`' language: "Profile" for one without a name.
    func displayName(_ words: Words) -> String { name.isEmpty ? words.profilesUnnamed : name }
}
