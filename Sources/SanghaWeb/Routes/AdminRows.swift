import Foundation
import SanghaCore
import SanghaViewModels

/// The last row (`AdminPersonRow`) each person was shown with on `/admin`, to the administrator
/// it is and to another, kept with what it was made from and with its rendering: ten rows of
/// dates and sentences were a fifth of the page's instructions, and their HTML a seventh. A row
/// is given back only when made from the very same overview, zone, language and reader's form
/// token, compared each time (as `GroupRosters`), so nothing kept is ever stale and no row one
/// administrator was shown reaches another. At most `limit` are kept; past that, all go.
final class AdminRows: Sendable {
    static let shared = AdminRows()
    static let limit = 10_000

    private struct Key: Hashable {
        let person: Int
        let isReader: Bool
    }

    private let kept = KeptParts<Key, AdminPersonRow.Source, AdminPersonRow>(limit: AdminRows.limit)

    /// The row made from `source` in `words`' language: the one kept when made from the same.
    func row(_ source: AdminPersonRow.Source, words: Words) -> AdminPersonRow {
        kept.value(for: Key(person: source.overview.person.id, isReader: source.isReader), from: source) {
            AdminPersonRow(source, words: words)
        }
    }

    /// Rows kept.
    var count: Int { kept.count }
}
