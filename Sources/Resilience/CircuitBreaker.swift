import Foundation
import Logging
import Metrics
import Synchronization

/// The memory of a remote server's failures (the FriendService, the database): after
/// `threshold` calls in a row failed because it did not answer (`isUnanswered`: a timeout, a
/// refused or dropped connection), calls stop for a cool-off and fail at once, with the failure
/// that opened it; then one call goes through to see whether it is back (in the background for
/// a call safe to make for no one, `read`, or a probe of the caller's own, `admit`). A success
/// closes it; a failure opens it again for twice as long, up to `longestCoolOff`.
///
/// Each user chooses its numbers and says why (`BreakingFriendService`, `PostgresDatabase`); none
/// is a flag.
public final class CircuitBreaker<Failure: Error & Sendable>: Sendable {
    public enum State: Sendable, Equatable {
        /// Calls go through; `failures` in a row have failed.
        case closed(failures: Int)
        /// Calls fail at once until `until`.
        case open(until: ContinuousClock.Instant)
        /// One call is finding out whether the service is back; the others fail at once.
        case halfOpen
    }

    struct Memory {
        var state = State.closed(failures: 0)
        var coolOff: Duration
        /// What calls answer while it is open: the failure that opened it.
        var lastFailure: Failure
    }

    public let threshold: Int
    public let firstCoolOff: Duration
    public let longestCoolOff: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let memory: Mutex<Memory>
    private let logger: Logger
    /// What the log calls the server: "The FriendService http://127.0.0.1:8081".
    private let name: String
    /// The metrics' names begin with it: `sangha_friend_service` gives
    /// `sangha_friend_service_breaker_state` and `…_breaker_transitions_total`.
    private let metrics: String
    /// The metrics' dimensions: a breaker of several, one per host, names its host.
    private let dimensions: [(String, String)]
    private let isUnanswered: @Sendable (Failure) -> Bool

    public init(
        name: String, metrics: String, threshold: Int = 3, coolOff: Duration = .seconds(5),
        longestCoolOff: Duration = .seconds(60), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        logger: Logger, isUnanswered: @escaping @Sendable (Failure) -> Bool, placeholder: Failure,
        dimensions: [(String, String)] = []
    ) {
        self.name = name
        self.metrics = metrics
        self.dimensions = dimensions
        self.threshold = threshold
        self.firstCoolOff = coolOff
        self.longestCoolOff = longestCoolOff
        self.now = now
        self.logger = logger
        self.isUnanswered = isUnanswered
        self.memory = Mutex(Memory(coolOff: coolOff, lastFailure: placeholder))
        Gauge(label: "\(metrics)_breaker_state", dimensions: dimensions).record(0)
    }

    public var state: State { memory.withLock { $0.state } }

    /// Runs `call` (a write) when the breaker lets it through, the probe included; otherwise
    /// fails at once with the failure that opened it.
    public func run<Value>(_ call: () async throws(Failure) -> Value) async throws(Failure)
        -> Value
    {
        if case .refused(let failure) = admit() { throw failure }
        return try await observed(call)
    }

    /// Runs `call` (a read, safe to make for no one) when the breaker is closed. When it is time
    /// to see whether the service is back, `call` is that probe, made in the background: this
    /// caller, like the others meanwhile, fails at once, and no page waits the service's timeout.
    public func read<Value: Sendable>(
        _ call: @escaping @Sendable () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        switch admit() {
        case .call: return try await observed(call)
        case .refused(let failure): throw failure
        case .probe(let failure):
            Task { _ = try? await self.observed(call) }
            throw failure
        }
    }

    /// Runs `call` as admitted (`admit`), and counts what it found.
    public func observed<Value>(_ call: () async throws(Failure) -> Value) async throws(Failure) -> Value {
        do {
            let value = try await call()
            succeeded()
            return value
        } catch {
            if isUnanswered(error) { failed(error) } else { succeeded() }
            throw error
        }
    }

    /// What a call may do now: go through, go through as the probe (the failure to answer its
    /// caller with, for a probe made in the background), or fail at once.
    public enum Admission: Sendable {
        case call
        case probe(Failure)
        case refused(Failure)
    }

    /// Whether a call may go through now; `.probe` once a cool-off is over (the caller makes
    /// the one call that finds out, through `observed`, and the others are refused meanwhile).
    public func admit() -> Admission {
        let instant = now()
        let admission = memory.withLock { memory -> Admission in
            switch memory.state {
            case .closed: return .call
            case .open(let until) where instant >= until:
                memory.state = .halfOpen
                return .probe(memory.lastFailure)
            case .open, .halfOpen: return .refused(memory.lastFailure)
            }
        }
        if case .probe = admission { transition(to: "half_open", gauge: 2) }
        return admission
    }

    private func succeeded() {
        let closed = memory.withLock { memory -> Bool in
            let wasClosed = if case .closed = memory.state { true } else { false }
            memory.state = .closed(failures: 0)
            memory.coolOff = firstCoolOff
            return !wasClosed
        }
        if closed {
            logger.notice("\(name) answers again: calls go through.")
            transition(to: "closed", gauge: 0)
        }
    }

    private func failed(_ error: Failure) {
        let instant = now()
        let opened = memory.withLock { memory -> (coolOff: Duration, first: Bool)? in
            memory.lastFailure = error
            switch memory.state {
            case .closed(let failures) where failures + 1 < threshold:
                memory.state = .closed(failures: failures + 1)
                return nil
            case .closed, .halfOpen:
                let first = if case .closed = memory.state { true } else { false }
                let coolOff = memory.coolOff
                memory.state = .open(until: instant + coolOff)
                memory.coolOff = min(coolOff * 2, longestCoolOff)
                return (coolOff, first)
            case .open:
                return nil  // a call let through before it opened: already open
            }
        }
        guard let opened else { return }
        // Said once when it stops calling; each probe that finds it still down only at debug.
        if opened.first {
            logger.warning(
                "\(name) does not answer (\(error)): calls fail at once for \(opened.coolOff), then one goes through now and then."
            )
        } else {
            logger.debug("\(name) still does not answer: calls fail at once for \(opened.coolOff).")
        }
        transition(to: "open", gauge: 1)
    }

    /// The state gauge: 0 closed, 1 open, 2 half-open.
    private func transition(to state: String, gauge: Double) {
        Gauge(label: "\(metrics)_breaker_state", dimensions: dimensions).record(gauge)
        Counter(label: "\(metrics)_breaker_transitions_total", dimensions: dimensions + [("to", state)]).increment()
    }
}
