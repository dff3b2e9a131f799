import Foundation

/// Runs `work`, which blocks its thread (a process's exit, a socket's answer), on a thread of its
/// own and waits for it without holding a thread.
///
/// The tests of every target run in one process, many at once, on Swift's cooperative pool: as
/// many threads as cores (two here). A test that blocks one of them, with a 10 s read or a server
/// shutting down, holds up every other test's tasks and the in-process servers they talk to: a
/// 500 ms deadline elsewhere was seen to take 11.7 s.
public func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// The same for work that cannot fail.
public func offThePool<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}
