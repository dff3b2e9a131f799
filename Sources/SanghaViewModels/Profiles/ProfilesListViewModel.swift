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

    public init(
        profiles: [Profile]?,
        formToken: String,
        name: String = "",
        nameError: String? = nil,
        flash: FlashViewModel? = nil
    ) {
        layout = LayoutViewModel(title: "Profiles", section: .profiles, flash: flash)
        rows = (profiles ?? []).map { ProfileRowViewModel(profile: $0, formToken: formToken) }
        self.formToken = formToken
        hasRows = !rows.isEmpty
        emptyMessage = profiles?.isEmpty == true ? Self.noProfilesMessage : nil
        errorMessage = profiles == nil ? Self.storageFailureMessage : nil
        nameField = FormFieldViewModel(
            name: "name",
            label: "Name",
            value: name,
            error: nameError,
            maxLength: Profile.nameLengthLimit
        )
    }

    public static func load(
        from repository: any ProfileRepository,
        formToken: String,
        flash: FlashViewModel? = nil
    ) async -> ProfilesListViewModel {
        ProfilesListViewModel(profiles: try? await repository.list(), formToken: formToken, flash: flash)
    }

    public enum Outcome: Sendable, Equatable {
        /// Created: open its editor.
        case created(redirectTo: String, flash: FlashViewModel)
        /// The name breaks a rule: the list again with the message by the name field.
        case invalid(ProfilesListViewModel)
        /// The storage failed: the list again with the alert-like flash.
        case failed(ProfilesListViewModel)
    }

    /// Creates a new profile (07:30, Warm Up and Cool Down off) named `name`.
    public static func create(name rawName: String?, in repository: any ProfileRepository, formToken: String) async
        -> Outcome
    {
        let name = (rawName ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if let message = Profile.validateName(name) {
            let profiles = try? await repository.list()
            return .invalid(
                ProfilesListViewModel(
                    profiles: profiles,
                    formToken: formToken,
                    name: rawName ?? "",
                    nameError: message
                ))
        }
        do {
            let profile = try await repository.create(.new(named: name))
            return .created(redirectTo: "/profiles/\(profile.id)", flash: .success("Created \(profile.name)."))
        } catch {
            let profiles = try? await repository.list()
            let flash = FlashViewModel.error(title: "Could not create \(name).", message: "Please try again.")
            return .failed(
                ProfilesListViewModel(profiles: profiles, formToken: formToken, name: rawName ?? "", flash: flash))
        }
    }

    /// Deletes a profile; either way back to the list with a flash.
    public static func delete(id: Int, in repository: any ProfileRepository) async -> (
        redirectTo: String, flash: FlashViewModel
    ) {
        let name = (try? await repository.get(id: id))?.name
        do {
            guard try await repository.delete(id: id), let name else {
                return ("/profiles", .error(title: "Could not delete this profile.", message: "Profile not found."))
            }
            return ("/profiles", .success("Deleted \(name)."))
        } catch {
            return (
                "/profiles", .error(title: "Could not delete \(name ?? "this profile").", message: "Please try again.")
            )
        }
    }
}
