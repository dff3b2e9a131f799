import Synchronization

/// A wait that the first of its possible answers ends: a call's own answer, or a
/// `DeadlineWatch`'s at the timeout, whichever comes first; later ones do nothing.
public final class FirstAnswer<Value>: Sendable {
    private let waiting = Mutex<CheckedContinuation<Value, Never>?>(nil)

    public init() {}

    /// The one waiting, from now.
    public func start(_ continuation: CheckedContinuation<Value, Never>) {
        waiting.withLock { $0 = continuation }
    }

    /// Whether this answer was the one that ended the wait.
    @discardableResult public func finish(_ value: sending Value) -> Bool {
        guard
            let continuation = waiting.withLock({ waiting in
                defer { waiting = nil }; return waiting
            })
        else {
            return false
        }
        continuation.resume(returning: value)
        return true
    }
}
