import Foundation
import Logging
import Metrics
import SanghaCore
import Synchronization

/// The memory of a remote service's failures: after `threshold` calls in a row failed because
/// the service did not answer (a timeout, a refused or dropped connection), calls stop for a
/// cool-off and fail at once, with the failure that opened it; then one call goes through to see
/// whether the service is back (a read in the background, so no page waits on it: `read`). A
/// success closes it; a failure opens it again for twice as long, up to `longestCoolOff`.
///
/// One breaker serves one service address, whatever the token: a wrong token's 401 is an
/// answer, not a failure of the service.
///
/// The numbers are not flags: 3 failures in a row are not bad luck (the client already waits
/// the whole timeout for each), 5 s is long enough to spare a hung service the pile of
/// requests and short enough that a restarted one is seen at once, and 60 s bounds how long a
/// service that is back goes unnoticed.
public final class CircuitBreaker: Sendable {
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
        var lastFailure = FriendServiceError(.transport("The request timed out."))
    }

    public let threshold: Int
    public let firstCoolOff: Duration
    public let longestCoolOff: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let memory: Mutex<Memory>
    private let logger: Logger
    private let name: String

    public init(
        name: String, threshold: Int = 3, coolOff: Duration = .seconds(5), longestCoolOff: Duration = .seconds(60),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        logger: Logger = Logger(label: "sangha.friend-service")
    ) {
        self.name = name
        self.threshold = threshold
        self.firstCoolOff = coolOff
        self.longestCoolOff = longestCoolOff
        self.now = now
        self.logger = logger
        self.memory = Mutex(Memory(coolOff: coolOff))
        Self.stateGauge.record(0)
    }

    public var state: State { memory.withLock { $0.state } }

    /// Runs `call` (a write) when the breaker lets it through, the probe included; otherwise
    /// fails at once with the failure that opened it.
    public func run<Value>(_ call: () async throws(FriendServiceError) -> Value) async throws(FriendServiceError)
        -> Value
    {
        if case .refused(let failure) = admit() { throw failure }
        return try await observed(call)
    }

    /// Runs `call` (a read, safe to make for no one) when the breaker is closed. When it is time
    /// to see whether the service is back, `call` is that probe, made in the background: this
    /// caller, like the others meanwhile, fails at once, and no page waits the service's timeout.
    public func read<Value: Sendable>(
        _ call: @escaping @Sendable () async throws(FriendServiceError) -> Value
    ) async throws(FriendServiceError) -> Value {
        switch admit() {
        case .call: return try await observed(call)
        case .refused(let failure): throw failure
        case .probe(let failure):
            Task { _ = try? await self.observed(call) }
            throw failure
        }
    }

    private func observed<Value>(_ call: () async throws(FriendServiceError) -> Value) async throws(FriendServiceError)
        -> Value
    {
        do {
            let value = try await call()
            succeeded()
            return value
        } catch {
            if Self.isUnanswered(error) { failed(error) } else { succeeded() }
            throw error
        }
    }

    /// Whether the service did not answer (the failures the breaker counts): no connection, no
    /// answer in time, or a proxy in front of it saying so (502, 503, 504). A refusal, another
    /// 5xx or a body that could not be read are the service's answers.
    static func isUnanswered(_ error: FriendServiceError) -> Bool {
        switch error.reason {
        case .transport: true
        case .server(let status): [502, 503, 504].contains(status)
        default: false
        }
    }

    /// What a call may do now: go through, go through as the probe (the failure to answer its
    /// caller with, for a probe made in the background), or fail at once.
    private enum Admission {
        case call
        case probe(FriendServiceError)
        case refused(FriendServiceError)
    }

    private func admit() -> Admission {
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
            logger.notice("The FriendService \(name) answers again: calls go through.")
            transition(to: "closed", gauge: 0)
        }
    }

    private func failed(_ error: FriendServiceError) {
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
                "The FriendService \(name) does not answer (\(error.reason)): calls fail at once for \(opened.coolOff), then one goes through now and then."
            )
        } else {
            logger.debug("The FriendService \(name) still does not answer: calls fail at once for \(opened.coolOff).")
        }
        transition(to: "open", gauge: 1)
    }

    private func transition(to state: String, gauge: Double) {
        Self.stateGauge.record(gauge)
        Counter(label: "sangha_friend_service_breaker_transitions_total", dimensions: [("to", state)]).increment()
    }

    /// 0 closed, 1 open, 2 half-open.
    private static var stateGauge: Gauge { Gauge(label: "sangha_friend_service_breaker_state") }
}

/// A FriendService behind a `CircuitBreaker`: the clients of every token of one service share
/// one breaker.
public struct BreakingFriendService: FriendService {
    let service: any FriendService
    let breaker: CircuitBreaker

    public init(_ service: any FriendService, breaker: CircuitBreaker) {
        self.service = service
        self.breaker = breaker
    }

    public func listFriends() async throws(FriendServiceError) -> [Friend] {
        try await breaker.read { [service] () async throws(FriendServiceError) in try await service.listFriends() }
    }

    public func addFriend(_ draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        try await breaker.run { () async throws(FriendServiceError) in try await service.addFriend(draft) }
    }

    public func updateFriend(id: Int, with draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        try await breaker.run { () async throws(FriendServiceError) in
            try await service.updateFriend(id: id, with: draft)
        }
    }

    public func deleteFriend(id: Int) async throws(FriendServiceError) {
        try await breaker.run { () async throws(FriendServiceError) in try await service.deleteFriend(id: id) }
    }
}
