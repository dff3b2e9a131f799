import Foundation
import FriendServiceClient
import Resilience
import SanghaCore
import Synchronization
import Testing

/// The breaker's states on a clock the test moves.
@Suite("Circuit breaker")
struct CircuitBreakerTests {
    final class Clock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(_ duration: Duration) { instant.withLock { $0 += duration } }
    }

    static let timeout = FriendServiceError(.transport("The request timed out."))

    /// Counts the calls that reach the service.
    final class Calls: Sendable {
        private let count = Mutex(0)
        var made: Int { count.withLock { $0 } }
        func call(_ error: FriendServiceError?) async throws(FriendServiceError) -> Int {
            count.withLock { $0 += 1 }
            if let error { throw error }
            return 1
        }
    }

    func breaker(_ clock: Clock) -> CircuitBreaker<FriendServiceError> {
        CircuitBreaker(friendService: "test", now: { clock.now })
    }

    /// One call through `breaker`, failing with `error` (nil: answered); `meanwhile` runs while
    /// it is under way. What the caller got.
    func run(
        _ breaker: CircuitBreaker<FriendServiceError>, _ calls: Calls, failing error: FriendServiceError?,
        meanwhile: () async -> Void = {}
    ) async -> FriendServiceError? {
        do {
            _ = try await breaker.run { () async throws(FriendServiceError) in
                await meanwhile()
                return try await calls.call(error)
            }
            return nil
        } catch {
            return error
        }
    }

    @Test("Three timeouts in a row open it: calls then fail at once with the timeout's message, not calling")
    func opens() async {
        let clock = Clock()
        let breaker = breaker(clock)
        let calls = Calls()
        for _ in 0..<2 { _ = await run(breaker, calls, failing: Self.timeout) }
        #expect(breaker.state == .closed(failures: 2))
        _ = await run(breaker, calls, failing: Self.timeout)
        #expect(breaker.state == .open(until: clock.now + .seconds(5)))
        #expect(await run(breaker, calls, failing: nil) == Self.timeout)
        #expect(calls.made == 3)
    }

    @Test("Answers are not failures of the service: a 401, a 500 or a refusal keep it closed and end a run")
    func answersAreNotFailures() async {
        let breaker = breaker(Clock())
        let calls = Calls()
        for answer in [FriendServiceError(.unauthorized), FriendServiceError(.server(status: 500))] {
            for _ in 0..<2 { _ = await run(breaker, calls, failing: Self.timeout) }
            _ = await run(breaker, calls, failing: answer)
            #expect(breaker.state == .closed(failures: 0))
        }
        #expect(calls.made == 6)
    }

    @Test("After the cool-off one call goes through, the others fail at once; its success closes it")
    func halfOpenThenClosed() async {
        let clock = Clock()
        let breaker = breaker(clock)
        let calls = Calls()
        for _ in 0..<3 { _ = await run(breaker, calls, failing: Self.timeout) }
        clock.advance(.seconds(5))
        // The probe is under way: another call meanwhile fails at once.
        let during = Mutex<FriendServiceError?>(nil)
        let probe = await run(breaker, calls, failing: nil) {
            #expect(breaker.state == .halfOpen)
            let refused = await run(breaker, Calls(), failing: nil)
            during.withLock { $0 = refused }
        }
        #expect(probe == nil)
        #expect(during.withLock { $0 } == Self.timeout)
        #expect(breaker.state == .closed(failures: 0))
        #expect(calls.made == 4)
    }

    @Test("A probe that fails opens it again for twice as long, up to 60 s; a success starts again from 5 s")
    func coolOffDoubles() async {
        let clock = Clock()
        let breaker = breaker(clock)
        let calls = Calls()
        for _ in 0..<3 { _ = await run(breaker, calls, failing: Self.timeout) }
        var coolOff = Duration.seconds(5)
        for expected in [10, 20, 40, 60, 60].map(Duration.seconds) {
            clock.advance(coolOff)
            _ = await run(breaker, calls, failing: Self.timeout)
            #expect(breaker.state == .open(until: clock.now + expected))
            coolOff = expected
        }
        clock.advance(.seconds(60))
        _ = await run(breaker, calls, failing: nil)
        for _ in 0..<3 { _ = await run(breaker, calls, failing: Self.timeout) }
        #expect(breaker.state == .open(until: clock.now + .seconds(5)))
    }

    @Test("A read's probe is made in the background: its caller fails at once too, and its answer closes it")
    func backgroundProbe() async throws {
        let clock = Clock()
        let breaker = breaker(clock)
        let calls = Calls()
        for _ in 0..<3 { _ = await run(breaker, calls, failing: Self.timeout) }
        clock.advance(.seconds(5))
        // The probe answers only when the test lets it: its caller must not be waiting for it.
        let (answer, letAnswer) = AsyncStream<Void>.makeStream()
        do {
            _ = try await breaker.read { () async throws(FriendServiceError) in
                for await _ in answer { break }
                return try await calls.call(nil)
            }
            Issue.record("the probe's caller got the probe's answer")
        } catch {
            #expect(error == Self.timeout)
        }
        #expect(breaker.state == .halfOpen)
        #expect(await run(breaker, calls, failing: nil) == Self.timeout)
        letAnswer.yield()
        for _ in 0..<400 where breaker.state != .closed(failures: 0) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(breaker.state == .closed(failures: 0))
        #expect(calls.made == 4)
    }
}
