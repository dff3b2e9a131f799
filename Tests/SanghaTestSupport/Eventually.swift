import Foundation

/// Whether `condition` holds before `limit` is over, asked every 10 ms: for what a running server
/// or another instance does soon, not at once. The limit is a generous bound for a busy machine,
/// never a measure of speed.
public func eventually(within limit: Duration, _ condition: () async throws -> Bool) async throws -> Bool {
    let end = ContinuousClock.now + limit
    while ContinuousClock.now < end {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}
