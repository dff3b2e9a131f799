import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import ServiceLifecycle
import Synchronization

/// Sends messages in the background, a service of `sangha serve`: no page ever waits for a push
/// service. At most `concurrency` posts are under way at once, and, when given, at most `rate`
/// begin a second (`PushPacer`, `--push-rate`, 500 by `serve`'s default: each message costs
/// about 1.8 M instructions, its encryption 1 M of them, so a large sit's pushes are spread out
/// rather than taking the cores from the pages); what a push service answers is acted on:
///
/// - 2xx: delivered.
/// - 404, 410: the subscription is gone; `gone` deletes it.
/// - 429, 5xx, and no answer: tried again, first after the answer's `Retry-After` (30 s when it
///   gives none), then each time twice as long after, for up to `retryWindow` (15 minutes) from
///   the first try, and never past the message's own expiry.
/// - 400, 403, 413 and anything else: logged once, never tried again.
///
/// `/metrics` counts every answer (`sangha_push_messages_total` by `outcome`) and every message
/// given up (`sangha_push_given_up_total`).
public final class PushSender: Service, Sendable {
    public static let firstRetry: TimeInterval = 30
    public static let retryWindow: TimeInterval = 15 * 60

    struct Attempt: Sendable {
        var message: PushMessage
        /// When it was first tried; nil before.
        var firstTried: Date?
        /// The wait before this try, for the next to be twice as long.
        var lastWait: TimeInterval?
    }

    private let poster: PushPoster
    private let client: HTTPClient?
    private let concurrency: Int
    private let rate: Int?
    private let logger: Logger
    private let now: @Sendable () -> Date
    /// How often the retries due are looked for.
    private let tick: Duration
    private let gone: @Sendable (Int) async -> Void
    private let observe: @Sendable (PushMessage, PushAnswer) -> Void
    private let queue: AsyncStream<Attempt>
    private let input: AsyncStream<Attempt>.Continuation
    private let retries = Mutex<[(due: Date, attempt: Attempt)]>([])
    private let pending = Mutex(0)

    /// `client`, when given, is shut down when the service stops. `rate`: messages begun a second
    /// at most (nil: as fast as they come). `gone` deletes a subscription the push service no
    /// longer knows; `observe` hears every answer once it is acted on (the tests, the bench).
    public init(
        poster: PushPoster, client: HTTPClient? = nil, concurrency: Int = 64, rate: Int? = nil, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }, tick: Duration = .seconds(1),
        gone: @escaping @Sendable (Int) async -> Void,
        observe: @escaping @Sendable (PushMessage, PushAnswer) -> Void = { _, _ in }
    ) {
        (self.poster, self.client, self.concurrency, self.rate, self.logger) = (
            poster, client, concurrency, rate, logger
        )
        (self.now, self.tick, self.gone, self.observe) = (now, tick, gone, observe)
        (queue, input) = AsyncStream.makeStream(of: Attempt.self)
    }

    /// Queues `messages`; they go out as soon as a post is free.
    public func send(_ messages: [PushMessage]) {
        pending.withLock { $0 += messages.count }
        for message in messages { input.yield(Attempt(message: message)) }
    }

    /// Messages queued or waiting to be tried again.
    public var backlog: Int { pending.withLock { $0 } }

    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.retryDue() }
            var running = 0
            var pacer = rate.map { PushPacer(rate: $0) }
            let start = ContinuousClock.now
            for await attempt in queue.cancelOnGracefulShutdown() {
                if running >= concurrency {
                    await group.next()
                    running -= 1
                }
                if let wait = pacer?.wait(at: ContinuousClock.now - start), wait > .zero {
                    try? await Task.sleep(for: wait)
                }
                group.addTask { await self.attempt(attempt) }
                running += 1
            }
            group.cancelAll()
        }
        try? await client?.shutdown()
    }

    /// Moves the retries that are due back into the queue, every `tick`.
    private func retryDue() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: tick)
            let date = now()
            let due = retries.withLock { retries in
                let due = retries.filter { $0.due <= date }.map(\.attempt)
                retries.removeAll { $0.due <= date }
                return due
            }
            for attempt in due { input.yield(attempt) }
        }
    }

    private func attempt(_ attempt: Attempt) async {
        var attempt = attempt
        let date = now()
        attempt.firstTried = attempt.firstTried ?? date
        let answer = await poster.post(attempt.message)
        // Heard once acted on: the retry's time is set, the subscription deleted.
        defer { observe(attempt.message, answer) }
        Counter(label: "sangha_push_messages_total", dimensions: [("outcome", answer.outcome)]).increment()
        let host = attempt.message.endpoint.host ?? ""
        switch answer {
        case .delivered:
            done()
        case .gone(let status):
            logger.debug("A device's subscription is gone (\(status)): deleted", metadata: ["host": "\(host)"])
            await gone(attempt.message.subscription)
            done()
        case .refused(let status, let reason):
            logger.warning(
                "The push service \(host) refused a message (\(status)); it is not tried again",
                metadata: ["reason": "\(reason.prefix(200))"])
            done()
        case .later(_, let retryAfter):
            retry(attempt, after: retryAfter, answer: answer, at: now())
        case .unanswered:
            retry(attempt, after: nil, answer: answer, at: now())
        }
    }

    /// Tries `attempt` again after `retryAfter` (or 30 s, then twice the last wait), unless
    /// that is past the retry window or the message's expiry.
    private func retry(_ attempt: Attempt, after retryAfter: TimeInterval?, answer: PushAnswer, at date: Date) {
        var attempt = attempt
        let wait = max(1, attempt.lastWait.map { max($0 * 2, retryAfter ?? 0) } ?? retryAfter ?? Self.firstRetry)
        let due = date.addingTimeInterval(wait)
        let first = attempt.firstTried ?? date
        guard due <= first.addingTimeInterval(Self.retryWindow), due < attempt.message.expires else {
            logger.notice(
                "A message was given up after \(Int(date.timeIntervalSince(first))) s of tries",
                metadata: ["host": "\(attempt.message.endpoint.host ?? "")", "last": "\(answer)"])
            Counter(label: "sangha_push_given_up_total").increment()
            done()
            return
        }
        attempt.lastWait = wait
        retries.withLock { $0.append((due, attempt)) }
    }

    private func done() { pending.withLock { $0 -= 1 } }
}

/// When the next message may begin, for at most `rate` a second: a fifth of a second's worth
/// (`burst`) at once, then one every `1 / rate` (the generic cell rate algorithm: each message
/// moves a theoretical time on by the interval, and waits while that time is more than the burst
/// ahead of now). A sit of a small group goes at once; a large one's, in a steady stream.
///
/// A wait shorter than `step` (50 ms) is not waited, when a step holds two messages or more (from
/// 40 a second): the messages go at once until one's wait is a step, and the rate holds over the
/// steps. A fast stream so wakes twenty times a second rather
/// than once a message: at 500 a second, a push took 445 µs of CPU with a wake-up a message, 217
/// with these steps (160 unpaced; `perf stat` over a sit's 2,000).
public struct PushPacer: Sendable {
    public let interval: Duration
    /// How far ahead of now the theoretical time may run without waiting.
    let tolerance: Duration
    let step: Duration
    private var theoretical: Duration = .zero

    public init(rate: Int, burst: Int? = nil, step: Duration = .milliseconds(50)) {
        let rate = max(1, rate)
        interval = .seconds(1) / rate
        tolerance = interval * (max(1, burst ?? rate / 5) - 1)
        self.step = interval * 2 <= step ? step : .zero
    }

    /// How long the message asked for at `now` (time since any fixed start) waits before it
    /// begins (zero, or a step or more); the next is counted from then.
    public mutating func wait(at now: Duration) -> Duration {
        theoretical = max(theoretical, now)
        let wait = max(.zero, theoretical - tolerance - now)
        theoretical += interval
        return wait < step ? .zero : wait
    }
}
