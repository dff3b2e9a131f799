import Foundation
import SanghaCore
import SanghaViewModels

/// The last roster (`GroupRoster`: who is in the group and their week) each group's page was
/// shown with, a host's and a member's, kept with what it was made from. Every member who opens
/// the page reads the same members and practice (`GroupPageMemo`), so making their rows and
/// lines again, ten members' dates and sentences, was a third of the page's instructions. A
/// roster is given back only when made from the very same members, practice, zone and language,
/// compared each time, so nothing kept is ever stale and nothing needs forgetting. At most
/// `limit` are kept; past that, all go.
final class GroupRosters: Sendable {
    static let shared = GroupRosters()
    static let limit = 2_000

    private struct Key: Hashable {
        let group: Int
        let isHost: Bool
    }

    private let kept = KeptParts<Key, GroupRoster.Source, GroupRoster>(limit: GroupRosters.limit)

    /// The roster made from `source` in `words`' language: the one kept when made from the same.
    func roster(_ source: GroupRoster.Source, words: Words) -> GroupRoster {
        kept.value(for: Key(group: source.group, isHost: source.isHost), from: source) {
            GroupRoster(source, words: words)
        }
    }

    /// Rosters kept.
    var count: Int { kept.count }
}
