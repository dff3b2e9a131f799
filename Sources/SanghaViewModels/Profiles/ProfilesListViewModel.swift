import Foundation
import SanghaCore

/// The profiles page: each profile with its duration, and a form to create one by name.
public struct ProfilesListViewModel: Sendable, Equatable, Encodable {
    public static let noProfilesMessage = "No profiles yet. Create one below."
    public static let storageFailureMessage = "Profiles could not be read. Please try again."

    public let layout: LayoutViewModel
    public let rows: [ProfileRowViewModel]
    public let hasRows: Bool
    public let emptyMessage: String?
    public let errorMessage: String?
    public let createURL = "/profiles"
    public let createLabel = "Create profile"
    public let nameField: FormFieldViewModel
    /// The CSRF token the forms carry.
    public let formToken: String

    /// `profiles` nil: they could not be read, for `failure`.
    public init(
        profiles: [Profile]?,
        context: PageContext,
        name: String = "",
        nameError: String? = nil,
        failure: (any Error)? = nil
    ) {
        layout = LayoutViewModel(title: "Profiles", section: .profiles, context: context)
        rows = (profiles ?? []).map { ProfileRowViewModel(profile: $0, formToken: context.formToken) }
        self.formToken = context.formToken
        hasRows = !rows.isEmpty
        emptyMessage = profiles?.isEmpty == true ? Self.noProfilesMessage : nil
        errorMessage = profiles == nil ? StorageMessage.text(for: failure, otherwise: Self.storageFailureMessage) : nil
        nameField = FormFieldViewModel(
            name: "name",
            label: "Name",
            value: name,
            error: nameError,
            maxLength: Profile.nameLengthLimit
        )
    }

    /// The list; when it cannot be read, the page with why (and the form to create one) as a
    /// failure (503).
    public static func load(from repository: any ProfileRepository, context: PageContext) async
        -> LoadOutcome<ProfilesListViewModel>
    {
        do {
            return .page(ProfilesListViewModel(profiles: try await repository.list(), context: context))
        } catch {
            return .partial(ProfilesListViewModel(profiles: nil, context: context, failure: error), .storage)
        }
    }

    /// Creates a new profile (07:30, Warm Up and Cool Down off) named `name`, and opens its
    /// editor; a name that breaks a rule, or storage that fails, shows the list again with the
    /// name kept.
    public static func create(name rawName: String?, in repository: any ProfileRepository, context: PageContext)
        async -> SubmitOutcome<ProfilesListViewModel>
    {
        let context = context.withoutFlash
        let name = (rawName ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if let message = Profile.validateName(name) {
            let profiles = try? await repository.list()
            return .invalid(
                ProfilesListViewModel(profiles: profiles, context: context, name: rawName ?? "", nameError: message))
        }
        do {
            let profile = try await repository.create(.new(named: name))
            return .saved(Redirect(to: "/profiles/\(profile.id)", flash: .success("Created \(profile.name).")))
        } catch {
            let profiles = try? await repository.list()
            var failed = context
            failed.flash = .error(title: "Could not create \(name).", message: "Please try again.")
            return .failed(ProfilesListViewModel(profiles: profiles, context: failed, name: rawName ?? ""), .storage)
        }
    }

    /// Deletes a profile; either way back to the list with a flash.
    public static func delete(id: Int, in repository: any ProfileRepository) async -> Redirect {
        let name = (try? await repository.get(id: id))?.name
        do {
            guard try await repository.delete(id: id), let name else {
                return Redirect(
                    to: "/profiles",
                    flash: .error(title: "Could not delete this profile.", message: "Profile not found."))
            }
            return Redirect(to: "/profiles", flash: .success("Deleted \(name)."))
        } catch {
            return Redirect(
                to: "/profiles",
                flash: .error(title: "Could not delete \(name ?? "this profile").", message: "Please try again."))
        }
    }
}
