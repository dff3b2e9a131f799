import Foundation
import SanghaCore

/// What a page says when its storage failed: that the database is out of reach, when it is
/// (it may be back in a moment), else the page's own words.
public enum StorageMessage {
    public static let unreachable = "The database is not reachable. Try again in a moment."

    /// `unreachable` for a database out of reach, else `otherwise`.
    public static func text(for error: (any Error)?, otherwise: String) -> String {
        isUnreachable(error) ? unreachable : otherwise
    }

    /// The same in `words`' language: "The database is not reachable…" when the database is out
    /// of reach, else `otherwise` (already in that language).
    public static func text(for error: (any Error)?, otherwise: String, words: Words) -> String {
        isUnreachable(error) ? words.storageUnreachable : otherwise
    }

    /// Whether `error` is the database being out of reach.
    public static func isUnreachable(_ error: (any Error)?) -> Bool {
        (error as? any StorageError)?.isUnreachable == true
    }
}

extension ErrorPageViewModel {
    /// The 503 page of a profile that could not be read.
    static func profilesUnavailable(_ error: any Error, context: PageContext) -> ErrorPageViewModel {
        ErrorPageViewModel(
            heading: "Profiles are unavailable",
            message: StorageMessage.text(
                for: error, otherwise: "Profiles could not be read or saved. Please try again."),
            context: context)
    }
}
