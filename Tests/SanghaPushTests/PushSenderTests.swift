import Crypto
import Foundation
import Logging
import SanghaPush
import SanghaTestSupport
import SanghaTokens
import Synchronization
import Testing

/// The sender against a stand-in push service on loopback, for each answer a push service
/// gives, on a clock the test moves: what is delivered, deleted, tried again (and when), given
/// up, and what a push service that never answers costs.
@Suite("Sending to push services")
struct PushSenderTests {
    final class Clock: Sendable {
        let date = Mutex(Date(timeIntervalSince1970: 1_790_000_000))
        var now: Date { date.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
    }

    /// A device's keys, to read what it is sent.
    struct Device {
        let key = P256.KeyAgreement.PrivateKey()
        let auth = (0..<16).map { UInt8($0 + 40) }
    }

    final class Heard: Sendable {
        let gone = Mutex<[Int]>([])
        let answers = Mutex<[PushAnswer]>([])
    }

    static let logger = Logger(label: "push-test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func sender(
        _ service: StandInPushService, clock: Clock, heard: Heard
    ) -> (PushSender, Task<Void, any Error>, VAPID) {
        let vapid = VAPID(privateKey: .init(), contact: "mailto:ops@sangha.org", now: { clock.now })
        let client = PushPoster.makeClient()
        let sender = PushSender(
            poster: PushPoster(vapid: vapid, client: client, timeout: .seconds(10), logger: logger, now: { clock.now }),
            client: client, logger: logger, now: { clock.now }, tick: .milliseconds(10),
            gone: { id in heard.gone.withLock { $0.append(id) } },
            observe: { _, answer in heard.answers.withLock { $0.append(answer) } })
        return (sender, Task { try await sender.run() }, vapid)
    }

    static func message(
        _ endpoint: String, id: Int = 1, device: Device = Device(), expires: Date, topic: String? = "sit-7",
        text: String = #"{"title":"Zazen begins at 07:00"}"#
    ) -> PushMessage {
        PushMessage(
            subscription: id, endpoint: URL(string: endpoint)!,
            p256dh: [UInt8](device.key.publicKey.x963Representation),
            auth: device.auth, payload: Array(text.utf8), expires: expires, urgency: .high, topic: topic)
    }

    /// Waits until the sender has acted on `count` answers in all (a retry's time is set from
    /// the clock when the answer comes, so the test moves the clock only after).
    static func acted(_ heard: Heard, _ count: Int) async {
        for _ in 0..<1000 where heard.answers.withLock({ $0.count }) < count {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Gives the sender's loop time to act on the clock just moved, to show it did nothing.
    static func settle() async { try? await Task.sleep(for: .milliseconds(300)) }

    @Test("201: delivered once, with TTL, Urgency, Topic, aes128gcm, VAPID for the origin, and a body the device reads")
    func delivered() async throws {
        let service = try await StandInPushService.start()
        defer { service.stop() }
        let (clock, heard, device) = (Clock(), Heard(), Device())
        let (sender, task, vapid) = Self.sender(service, clock: clock, heard: heard)
        defer { task.cancel() }
        sender.send([Self.message(service.endpoint("ok"), device: device, expires: clock.now + 540)])
        let got = try #require(await service.waitFor(1).first)
        #expect(got.headers["ttl"] == "540")
        #expect(got.headers["urgency"] == "high")
        #expect(got.headers["topic"] == "sit-7")
        #expect(got.headers["content-encoding"] == "aes128gcm")
        #expect(got.headers["content-type"] == "application/octet-stream")
        let authorization = try #require(got.headers["authorization"])
        #expect(authorization.hasPrefix("vapid t=") && authorization.hasSuffix(", k=\(vapid.publicKeyText)"))
        let token = String(authorization.dropFirst("vapid t=".count).prefix { $0 != "," })
        let claims = String(decoding: Base64URL.decode(String(token.split(separator: ".")[1]))!, as: UTF8.self)
        #expect(claims.contains(#""aud":"\#(service.origin)""#))
        #expect(
            try BrowserSide.decrypt(got.body, receiver: device.key, auth: device.auth)
                == Array(#"{"title":"Zazen begins at 07:00"}"#.utf8))
        await Self.settle()
        #expect(heard.answers.withLock { $0 } == [.delivered])
        #expect(service.received().count == 1)
        #expect(sender.backlog == 0)
    }

    @Test(
        "The pacer lets a fifth of a second's worth go at once, then one every 1 / rate, and a quiet spell refills it")
    func pacer() {
        var pacer = PushPacer(rate: 10, burst: 5)
        #expect(pacer.interval == .milliseconds(100))
        #expect((0..<5).map { _ in pacer.wait(at: .zero) } == Array(repeating: .zero, count: 5))
        #expect(pacer.wait(at: .zero) == .milliseconds(100))
        #expect(pacer.wait(at: .milliseconds(100)) == .milliseconds(100), "a steady stream, ten a second")
        #expect(pacer.wait(at: .milliseconds(250)) == .milliseconds(50))
        // Quiet for a second: five at once again.
        #expect((0..<5).map { _ in pacer.wait(at: .seconds(2)) } == Array(repeating: .zero, count: 5))
        #expect(pacer.wait(at: .seconds(2)) == .milliseconds(100))
        // By default a fifth of a second's worth: 600 a second, 120 at once.
        var defaulted = PushPacer(rate: 600)
        #expect((0..<120).allSatisfy { _ in defaulted.wait(at: .zero) == .zero })
        #expect(defaulted.wait(at: .zero) == .zero, "shorter than a step")
        // Without steps, the 121st waits its interval.
        var exact = PushPacer(rate: 600, step: .zero)
        #expect((0..<120).allSatisfy { _ in exact.wait(at: .zero) == .zero })
        #expect(exact.wait(at: .zero) == exact.interval)
    }

    @Test("A fast pace waits in steps of 50 ms, not once a message, and holds its rate over them")
    func pacerSteps() {
        // 1,200 messages at 600 a second, 120 at once: the last begins 1.8 s after the first,
        // less a step at the most, with a wait about every 31st message (the first whose wait is
        // a step or more), not one a message.
        var pacer = PushPacer(rate: 600)
        var (now, waits) = (Duration.zero, [Duration]())
        for _ in 0..<1200 {
            let wait = pacer.wait(at: now)
            if wait > .zero { waits.append(wait) }
            now += wait
        }
        #expect(now > .milliseconds(1750) && now <= .milliseconds(1800), "\(now)")
        #expect(waits.allSatisfy { $0 >= .milliseconds(50) })
        #expect(waits.count >= 30 && waits.count <= 37, "\(waits.count)")
    }

    @Test("A sender with a rate sends every message, none sooner than the rate allows")
    func paced() async throws {
        let service = try await StandInPushService.start()
        defer { service.stop() }
        let (clock, heard) = (Clock(), Heard())
        let vapid = VAPID(privateKey: .init(), contact: "mailto:ops@sangha.org", now: { clock.now })
        let client = PushPoster.makeClient()
        let sender = PushSender(
            poster: PushPoster(vapid: vapid, client: client, timeout: .seconds(10), logger: Self.logger),
            client: client, rate: 20, logger: Self.logger, gone: { _ in },
            observe: { _, answer in heard.answers.withLock { $0.append(answer) } })
        let task = Task { try await sender.run() }
        defer { task.cancel() }
        let began = ContinuousClock.now
        sender.send((1...12).map { Self.message(service.endpoint("ok"), id: $0, expires: clock.now + 600) })
        await Self.acted(heard, 12)
        // Four at once, then one every 50 ms: the twelfth begins 400 ms after the first at the
        // soonest (a lower bound: a busy machine only makes it later).
        #expect(ContinuousClock.now - began >= .milliseconds(400))
        #expect(heard.answers.withLock { $0 } == Array(repeating: .delivered, count: 12))
        #expect(service.received().count == 12)
    }

    @Test("404 and 410: the subscription is deleted, and nothing is tried again")
    func gone() async throws {
        let service = try await StandInPushService.start()
        defer { service.stop() }
        let (clock, heard) = (Clock(), Heard())
        let (sender, task, _) = Self.sender(service, clock: clock, heard: heard)
        defer { task.cancel() }
        service.answer("a", with: [.init(404)])
        service.answer("b", with: [.init(410)])
        sender.send([
            Self.message(service.endpoint("a"), id: 11, expires: clock.now + 600),
            Self.message(service.endpoint("b"), id: 12, expires: clock.now + 600),
        ])
        await service.waitFor(2)
        for _ in 0..<200 where heard.gone.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(heard.gone.withLock { $0.sorted() } == [11, 12])
        clock.advance(3600)
        await Self.settle()
        #expect(service.received().count == 2)
    }

    @Test("400, 403 and 413: logged once, never tried again")
    func refused() async throws {
        let service = try await StandInPushService.start()
        defer { service.stop() }
        let (clock, heard) = (Clock(), Heard())
        let (sender, task, _) = Self.sender(service, clock: clock, heard: heard)
        defer { task.cancel() }
        for (name, status) in [("bad", 400), ("forbidden", 403), ("big", 413)] {
            service.answer(name, with: [.init(status)])
            sender.send([Self.message(service.endpoint(name), expires: clock.now + 900)])
        }
        await service.waitFor(3)
        for minute in 1...20 {
            clock.advance(60)
            if minute % 5 == 0 { await Self.settle() }
        }
        #expect(service.received().count == 3)
        #expect(
            heard.answers.withLock { $0.map(\.outcome) } == ["refused", "refused", "refused"])
        #expect(heard.gone.withLock { $0 }.isEmpty)
        #expect(sender.backlog == 0)
    }

    @Test("429 is tried again after its Retry-After; 503 after 30 s, then 60, 120, 240 s, and given up at 15 minutes")
    func later() async throws {
        let service = try await StandInPushService.start()
        defer { service.stop() }
        let (clock, heard) = (Clock(), Heard())
        let (sender, task, _) = Self.sender(service, clock: clock, heard: heard)
        defer { task.cancel() }
        service.answer("busy", with: [.init(429, headers: ["Retry-After": "7"])])
        sender.send([Self.message(service.endpoint("busy"), expires: clock.now + 3600)])
        await service.waitFor(1, to: "busy")
        await Self.acted(heard, 1)
        clock.advance(6)
        await Self.settle()
        #expect(service.received("busy").count == 1)
        clock.advance(1.5)
        #expect(await service.waitFor(2, to: "busy").count == 2)
        await Self.acted(heard, 2)

        service.answer("down", with: Array(repeating: .init(503), count: 10))
        let start = clock.now
        sender.send([Self.message(service.endpoint("down"), expires: clock.now + 3600)])
        await service.waitFor(1, to: "down")
        await Self.acted(heard, 3)
        // Each try after twice the wait before: at 30, 90, 210 and 450 s; the next would be at
        // 930 s, past the 15 minutes.
        for (tries, at) in [(2, 30.0), (3, 90.0), (4, 210.0), (5, 450.0)] {
            clock.date.withLock { $0 = start + at - 1 }
            await Self.settle()
            #expect(service.received("down").count == tries - 1, "not yet at \(at - 1) s")
            clock.date.withLock { $0 = start + at + 0.5 }
            #expect(await service.waitFor(tries, to: "down").count == tries, "tried again at \(at) s")
            await Self.acted(heard, 2 + tries)
        }
        clock.advance(3600)
        await Self.settle()
        #expect(service.received("down").count == 5)
        #expect(sender.backlog == 0)
    }

    @Test("A message is not tried again past its own expiry (a sit that has begun)")
    func expiry() async throws {
        let service = try await StandInPushService.start()
        defer { service.stop() }
        let (clock, heard) = (Clock(), Heard())
        let (sender, task, _) = Self.sender(service, clock: clock, heard: heard)
        defer { task.cancel() }
        service.answer("down", with: Array(repeating: .init(503), count: 10))
        sender.send([Self.message(service.endpoint("down"), expires: clock.now + 20)])
        await service.waitFor(1)
        await Self.acted(heard, 1)
        clock.advance(600)
        await Self.settle()
        #expect(service.received().count == 1)
        #expect(sender.backlog == 0)
    }

    @Test("A push service that never answers costs a bounded time; after three, its breaker stops the posts")
    func silent() async throws {
        let silent = try SilentPushService()
        defer { silent.stop() }
        // The client would wait a minute: each post must end at the poster's 300 ms (the bound
        // below leaves room for a loaded machine, not for the client's minute).
        let client = PushPoster.makeClient(read: .seconds(60))
        defer { Task { try? await client.shutdown() } }
        let poster = PushPoster(
            vapid: VAPID(privateKey: .init(), contact: "mailto:ops@sangha.org"), client: client,
            timeout: .milliseconds(300), logger: Self.logger)
        for index in 0..<3 {
            let started = ContinuousClock.now
            let answer = await poster.post(Self.message(silent.endpoint("\(index)"), expires: Date() + 600))
            #expect(answer.outcome == "unanswered")
            #expect(ContinuousClock.now - started < .seconds(30))
        }
        for _ in 0..<100 where silent.connections < 3 { try await Task.sleep(for: .milliseconds(20)) }
        let before = silent.connections
        let started = ContinuousClock.now
        let answer = await poster.post(Self.message(silent.endpoint("4"), expires: Date() + 600))
        #expect(answer.outcome == "unanswered")
        #expect(ContinuousClock.now - started < .seconds(2))
        await Self.settle()
        #expect(silent.connections == before)
    }
}
