import Synchronization

/// Calls under way, each ended when it is still unfinished at its timeout: one task looks over
/// all of them a few times a timeout while there are any. A timer of each call's own (a task
/// asleep for the timeout, or `DispatchQueue.asyncAfter`) cost Dispatch's timer thread a wake-up
/// to set it and another when it fell due all the same, seconds after the call had ended: a
/// push's CPU and a fifth of a friends call's (home's) went to them.
public final class DeadlineWatch: Sendable {
    private struct State {
        var calls: [Int: (deadline: ContinuousClock.Instant, end: @Sendable () -> Void)] = [:]
        var next = 0
        var watching = false
    }

    public let timeout: Duration
    /// How often the calls are looked over: a call ends at most this long after its timeout.
    private let interval: Duration
    private let state = Mutex(State())

    public init(timeout: Duration) {
        self.timeout = timeout
        interval = max(min(timeout / 4, .milliseconds(250)), .milliseconds(1))
    }

    /// Watches a call from now: `end` runs once its timeout has passed, unless `remove` (given
    /// the answer) comes first.
    public func add(end: @escaping @Sendable () -> Void) -> Int {
        let deadline = ContinuousClock.now + timeout
        let (id, start) = state.withLock { state in
            state.next += 1
            state.calls[state.next] = (deadline, end)
            defer { state.watching = true }
            return (state.next, !state.watching)
        }
        // Detached: the watch serves every caller, and inherits none's priority or task locals.
        if start { Task.detached { await self.watch() } }
        return id
    }

    /// The call `id` finished: no longer watched.
    public func remove(_ id: Int) {
        _ = state.withLock { $0.calls.removeValue(forKey: id) }
    }

    /// Ends the calls past their timeout every `interval`, until none is left.
    private func watch() async {
        var watching = true
        while watching {
            try? await Task.sleep(for: interval)
            let now = ContinuousClock.now
            let late: [@Sendable () -> Void]
            (late, watching) = state.withLock { state in
                let late = state.calls.filter { $0.value.deadline <= now }
                for id in late.keys { state.calls[id] = nil }
                state.watching = !state.calls.isEmpty
                return (late.values.map(\.end), state.watching)
            }
            for end in late { end() }
        }
    }
}
