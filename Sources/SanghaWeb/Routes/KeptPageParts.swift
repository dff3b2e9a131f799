import Foundation
import SanghaCore
import SanghaViewModels

/// A part of a page made from a `Source` alone, in the reader's words, that the routes keep
/// (`KeptPageParts`): a group's roster, a row of `/admin`.
protocol KeptPagePart: Sendable {
    associatedtype Source: Equatable & Sendable
    associatedtype Key: Hashable & Sendable
    /// Which kept part one made from `source` takes the place of.
    static func key(of source: Source) -> Key
    init(_ source: Source, words: Words)
}

/// The last part made for each key, kept with what it was made from and given back only when
/// made from the very same, compared each time (`KeptParts`): nothing kept is ever stale and
/// nothing needs forgetting. At most `limit` are kept; past that, all go.
final class KeptPageParts<Part: KeptPagePart>: Sendable {
    private let kept: KeptParts<Part.Key, Part.Source, Part>

    init(limit: Int) {
        kept = KeptParts(limit: limit)
    }

    /// The part made from `source` in `words`' language: the one kept when made from the same.
    func part(_ source: Part.Source, words: Words) -> Part {
        kept.value(for: Part.key(of: source), from: source) { Part(source, words: words) }
    }

    /// Parts kept.
    var count: Int { kept.count }
}

/// Who is in a group and their week, a host's and a member's, kept per group
/// (`GroupsRoutes.keptRosters`, at most 2,000). Every member who opens the page reads the same
/// members and practice (`GroupPageMemo`), so making their rows and lines again, ten members'
/// dates and sentences, was a third of the page's instructions. Given back only when made from
/// the very same members, practice, zone and language.
extension GroupRoster: KeptPagePart {
    struct Key: Hashable, Sendable {
        let group: Int
        let isHost: Bool
    }

    static func key(of source: Source) -> Key { Key(group: source.group, isHost: source.isHost) }
}

/// A person's row on `/admin`, to the administrator it is and to another, kept with its rendering
/// (`AdminRoutes.keptRows`, at most 10,000): ten rows of dates and sentences were a fifth of the
/// page's instructions, and their HTML a seventh. Given back only when made from the very same
/// overview, zone, language and reader's form token, so no row one administrator was shown
/// reaches another.
extension AdminPersonRow: KeptPagePart {
    struct Key: Hashable, Sendable {
        let person: Int
        let isReader: Bool
    }

    static func key(of source: Source) -> Key { Key(person: source.overview.person.id, isReader: source.isReader) }
}
