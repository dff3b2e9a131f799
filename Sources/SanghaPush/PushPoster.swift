import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import Resilience
import Synchronization

/// Posts one message to its push service (RFC 8030 §5): encrypted for the device (RFC 8291),
/// signed for the deployment (RFC 8292), within a bounded time, through a circuit breaker of
/// the push service's host, and never following a redirect. Answers what the push service
/// said; what to do about it is `PushSender`'s.
public final class PushPoster: Sendable {
    /// What a breaker remembers: the push service did not answer.
    public struct Unanswered: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public let vapid: VAPID
    /// The most one post may take, connection and answer included.
    public let timeout: Duration
    private let client: HTTPClient
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let breakers = Mutex<[String: CircuitBreaker<Unanswered>]>([:])
    private let watch: DeadlineWatch

    /// The client posts go through: no redirect is followed (an endpoint that redirects is not
    /// a push service's, and a redirect could lead anywhere), a few connections per host kept.
    /// `read` bounds a post the poster stopped waiting for (a test lengthens it, to tell the
    /// poster's own timeout from the client's).
    public static func makeClient(read: TimeAmount = .seconds(10)) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: read))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// `client` is the caller's to shut down (`PushSender` does, when it stops).
    public init(
        vapid: VAPID, client: HTTPClient, timeout: Duration = .seconds(10), logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        (self.vapid, self.client, self.timeout, self.logger, self.now) = (vapid, client, timeout, logger, now)
        watch = DeadlineWatch(timeout: timeout)
    }

    /// The request for `message` at `date`: its headers and its body, encrypted anew.
    public func request(for message: PushMessage, at date: Date) throws -> HTTPClientRequest {
        let body = try PushEncryption.encrypt(message.payload, receiver: message.p256dh, auth: message.auth)
        var request = HTTPClientRequest(url: message.endpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "TTL", value: String(message.ttl(at: date)))
        request.headers.add(name: "Urgency", value: message.urgency.rawValue)
        if let topic = message.topic { request.headers.add(name: "Topic", value: topic) }
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "Content-Length", value: String(body.count))
        request.headers.add(name: "Authorization", value: vapid.authorization(for: message.endpoint))
        request.body = .bytes(ByteBuffer(bytes: body))
        return request
    }

    /// Posts `message` once and answers what the push service said.
    public func post(_ message: PushMessage) async -> PushAnswer {
        let host = message.endpoint.host?.lowercased() ?? ""
        let breaker = breaker(for: host)
        let started = ContinuousClock.now
        let answer: PushAnswer
        do {
            let request = try request(for: message, at: now())
            answer = try await breaker.run { () async throws(Unanswered) -> PushAnswer in
                try await self.send(request)
            }
        } catch let failure as Unanswered {
            answer = .unanswered(failure.description)
        } catch {
            answer = .refused(0, reason: "the message could not be encrypted: \(error)")
        }
        Timer(label: "sangha_push_call_duration_seconds", dimensions: [("outcome", answer.outcome)])
            .recordNanoseconds((ContinuousClock.now - started).nanoseconds)
        return answer
    }

    /// The request sent, its answer read (its first 1 KiB, for the log), within `timeout`. The
    /// answer is awaited no longer than that (`DeadlineWatch`): a post the client does not give up at
    /// once when cancelled (one still waiting for its connection) ends in the background, within
    /// the client's own timeouts, and is not waited for.
    private func send(_ request: HTTPClientRequest) async throws(Unanswered) -> PushAnswer {
        let client = client
        let timeout = timeout
        let now = now
        let watch = watch
        let outcome = await withCheckedContinuation { continuation in
            let race = FirstAnswer<Result<PushAnswer, Unanswered>>()
            race.start(continuation)
            let post = Mutex<Task<Void, Never>?>(nil)
            // The watch ends the wait (and the post) past the timeout; an answer ends the watch's.
            let watched = watch.add {
                if race.finish(.failure(Unanswered(description: "no answer within \(timeout)"))) {
                    post.withLock { $0?.cancel() }
                }
            }
            let work = Task {
                defer { watch.remove(watched) }
                do {
                    let deadline = NIODeadline.now() + .nanoseconds(timeout.nanoseconds)
                    let response = try await client.execute(request, deadline: deadline)
                    let body = (try? await response.body.collect(upTo: 64 * 1024)).map { String(buffer: $0) } ?? ""
                    race.finish(
                        .success(
                            PushAnswer.of(
                                status: Int(response.status.code),
                                retryAfter: response.headers.first(name: "Retry-After"),
                                body: String(body.prefix(1024)), at: now())))
                } catch {
                    race.finish(.failure(Unanswered(description: "\(error)")))
                }
            }
            post.withLock { $0 = work }
        }
        return try outcome.get()
    }

    /// The breaker of `host`: three posts in a row unanswered, and posts to it fail at once for
    /// 5 s, then one goes through, up to a minute apart while it stays silent.
    private func breaker(for host: String) -> CircuitBreaker<Unanswered> {
        breakers.withLock { breakers in
            if let breaker = breakers[host] { return breaker }
            let breaker = CircuitBreaker<Unanswered>(
                name: "The push service \(host)", metrics: "sangha_push_service", threshold: 3, coolOff: .seconds(5),
                longestCoolOff: .seconds(60), logger: logger, isUnanswered: { _ in true },
                placeholder: Unanswered(description: "not called yet"), dimensions: [("host", host)])
            breakers[host] = breaker
            return breaker
        }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
