import Foundation
import SanghaCore

/// The home page's profiles panel: the first few profiles and a way to all of them.
public struct ProfilesPanelViewModel: Sendable, Equatable, Encodable {
    public static let limit = 5
    /// In English; the panel says it in its language.
    public static let noProfilesMessage = Words.english.homeNoProfiles

    /// A profile in the panel: a link to its editor.
    public struct Item: Sendable, Equatable, Encodable {
        public let name: String
        public let url: String
        public let durationText: String
    }

    public let title: String
    public let items: [Item]
    public let hasItems: Bool
    public let emptyMessage: String?
    public let errorMessage: String?
    public let allURL: String = Paths.profiles.url
    public let allLabel: String

    /// `profiles` nil: they could not be read, for `failure`. `total`: how many there are, when
    /// `profiles` are only the first of them. In `words`' language.
    public init(profiles: [Profile]?, total: Int? = nil, failure: (any Error)? = nil, words: Words) {
        title = words.homeProfiles
        let all = profiles ?? []
        let count = total ?? all.count
        items = all.prefix(Self.limit).map {
            Item(
                name: words.isolated($0.name), url: Paths.profile.url($0.id),
                durationText: DurationFormatter.string(from: $0.duration))
        }
        hasItems = !items.isEmpty
        emptyMessage = profiles?.isEmpty == true ? words.homeNoProfiles : nil
        errorMessage =
            profiles == nil
            ? (StorageMessage.isUnreachable(failure) ? words.storageUnreachable : words.profilesCouldNotRead)
            : nil
        allLabel =
            switch count {
            case 0: words.homeCreateProfile
            case ...Self.limit: words.homeManageProfiles
            default: words.homeAllProfiles(count)
            }
    }

    public static func load(from repository: any ProfileRepository, words: Words) async
        -> ProfilesPanelViewModel
    {
        do {
            let first = try await repository.list(limit: Self.limit, offset: 0)
            return ProfilesPanelViewModel(profiles: first.profiles, total: first.total, words: words)
        } catch {
            return ProfilesPanelViewModel(profiles: nil, failure: error, words: words)
        }
    }
}
