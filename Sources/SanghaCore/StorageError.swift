import Foundation

/// A storage failure that may be the database being out of reach (down, or not answering in
/// time) rather than a fault of the data: a page says so, and the same request succeeds once
/// the database is back. Each repository's error is one, with cases of its own beside these
/// two; the stores of both backends make them in one place each (`SanghaDatabase`'s and
/// `PostgresDatabase`'s calls).
public protocol StorageError: Error {
    /// The storage failed: the message is for the log.
    static func storage(_ message: String) -> Self
    /// The database could not be reached in time; it may be back in a moment.
    static func unreachable(_ message: String) -> Self
    var isUnreachable: Bool { get }
}

extension StorageError {
    /// `error` as this storage's error: itself when it is one, else `.storage` with what it says.
    public static func from(_ error: any Error) -> Self {
        (error as? Self) ?? .storage(String(describing: error))
    }
}

extension ProfileRepositoryError: StorageError {
    public var isUnreachable: Bool {
        if case .unreachable = self { true } else { false }
    }
}

extension SittingSessionRepositoryError: StorageError {
    public var isUnreachable: Bool {
        if case .unreachable = self { true } else { false }
    }
}
