import Foundation
import SanghaCore

/// The home page's profiles panel: the first few profiles and a way to all of them.
public struct ProfilesPanelViewModel: Sendable, Equatable, Encodable {
    public static let limit = 5
    public static let noProfilesMessage = "No profiles yet."

    /// A profile in the panel: a link to its editor.
    public struct Item: Sendable, Equatable, Encodable {
        public let name: String
        public let url: String
        public let durationText: String
    }

    public let title = "Profiles"
    public let items: [Item]
    public let hasItems: Bool
    public let emptyMessage: String?
    public let errorMessage: String?
    public let allURL = "/profiles"
    public let allLabel: String

    /// `profiles` nil: they could not be read, for `failure`.
    public init(profiles: [Profile]?, failure: (any Error)? = nil) {
        let all = profiles ?? []
        items = all.prefix(Self.limit).map {
            Item(name: $0.name, url: "/profiles/\($0.id)", durationText: DurationFormatter.string(from: $0.duration))
        }
        hasItems = !items.isEmpty
        emptyMessage = profiles?.isEmpty == true ? Self.noProfilesMessage : nil
        errorMessage =
            profiles == nil
            ? StorageMessage.text(for: failure, otherwise: ProfilesListViewModel.storageFailureMessage) : nil
        allLabel =
            switch all.count {
            case 0: "Create a profile"
            case ...Self.limit: "Manage profiles"
            default: "All \(all.count) profiles"
            }
    }

    public static func load(from repository: any ProfileRepository) async -> ProfilesPanelViewModel {
        do {
            return ProfilesPanelViewModel(profiles: try await repository.list())
        } catch {
            return ProfilesPanelViewModel(profiles: nil, failure: error)
        }
    }
}
