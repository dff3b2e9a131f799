import Foundation
import SanghaCore

/// The home page's profiles panel: the first few profiles and a way to all of them.
public struct ProfilesPanelViewModel: Sendable, Equatable, Encodable {
    public static let limit = 5

    public let title = "Profiles"
    public let rows: [ProfileRowViewModel]
    public let hasRows: Bool
    public let emptyMessage: String?
    public let errorMessage: String?
    public let allURL = "/profiles"
    public let allLabel: String

    /// `profiles` nil: they could not be read.
    public init(profiles: [Profile]?) {
        let all = profiles ?? []
        rows = all.prefix(Self.limit).map { ProfileRowViewModel(profile: $0, formToken: "") }
        hasRows = !rows.isEmpty
        emptyMessage = profiles?.isEmpty == true ? ProfilesListViewModel.noProfilesMessage : nil
        errorMessage = profiles == nil ? ProfilesListViewModel.storageFailureMessage : nil
        allLabel = all.count > Self.limit ? "All \(all.count) profiles" : "Manage profiles"
    }

    public static func load(from repository: any ProfileRepository) async -> ProfilesPanelViewModel {
        ProfilesPanelViewModel(profiles: try? await repository.list())
    }
}
