import Foundation

/// A storage failure that may be the database being out of reach (down, or not answering in
/// time) rather than a fault of the data: a page says so, and the same request succeeds once
/// the database is back.
public protocol StorageError: Error {
    var isUnreachable: Bool { get }
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
