import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaTestSupport
import SanghaWeb
import Testing

/// What a slow or stalled client can hold (`TransportLimits`), on a real server over loopback
/// sockets, with the limits made short: a request's time to arrive, an answer given before its
/// request arrived, the connections of one address, a stream nobody reads.
@Suite("Transport limits")
struct TransportLimitsTests {
    static let health = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)

    /// A form post's head to `/sign-in` from a browser that loaded the page (its CSRF cookie:
    /// the body is read), anonymous, announcing `length` bytes of body.
    static func signIn(length: Int) -> [UInt8] {
        Array(
            ("POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Cookie: sangha_csrf=\(FormPost.token)\r\nContent-Length: \(length)\r\n\r\n").utf8)
    }

    /// The values of the header `name` (any case) in a raw response's head.
    static func header(_ name: String, in response: String) -> [String] {
        let head = response.components(separatedBy: "\r\n\r\n").first ?? ""
        return head.components(separatedBy: "\r\n").dropFirst().compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == name.lowercased() else { return nil }
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
    }

    /// `/health`'s answer on a connection of its own, from `source`.
    static func answer(port: Int, source: String? = nil) async -> Bool {
        guard let stream = try? RawStream(health, port: port, source: source) else { return false }
        return await stream.read(until: "\r\n\r\nOK", timeout: 10)
    }

    /// Sends `bytes` on `stream` every `interval` until the connection closes or `count` sends went.
    static func trickle(_ stream: RawStream, _ bytes: [UInt8], every interval: Duration, count: Int = 200)
        -> Task<Void, Never>
    {
        Task.detached {
            for _ in 0..<count {
                guard !Task.isCancelled, stream.send(bytes) else { return }
                try? await Task.sleep(for: interval)
            }
        }
    }

    @Test(
        "A body sent a byte at a time is answered 408 and closed by its deadline; another connection is served meanwhile"
    )
    func slowBody() async throws {
        var configuration = AppConfiguration.testing
        configuration.requestTimeout = .milliseconds(500)
        configuration.requestMinimumRate = 1000
        try await withApp(configuration: configuration, testing: .live) { client in
            let port = try #require(client.port)
            let slow = try RawStream(Self.signIn(length: 1000), port: port)
            // Each byte would start the 30 s idle timer again.
            let sending = Self.trickle(slow, [UInt8(ascii: "a")], every: .milliseconds(100))
            defer { sending.cancel() }
            #expect(await Self.answer(port: port))
            #expect(await slow.readToEnd(timeout: 15), "the slow request's connection was kept open")
            #expect(slow.text.hasPrefix("HTTP/1.1 408"))
            #expect(Self.header("Connection", in: slow.text) == ["close"])
        }
    }

    @Test("A head sent a byte at a time is answered 408 and closed too")
    func slowHead() async throws {
        var configuration = AppConfiguration.testing
        configuration.requestTimeout = .milliseconds(500)
        configuration.requestMinimumRate = 1000
        try await withApp(configuration: configuration, testing: .live) { client in
            let port = try #require(client.port)
            let slow = try RawStream(Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8), port: port)
            let sending = Self.trickle(slow, [UInt8(ascii: "a")], every: .milliseconds(100))
            defer { sending.cancel() }
            #expect(await slow.readToEnd(timeout: 15), "the slow head's connection was kept open")
            #expect(slow.text.hasPrefix("HTTP/1.1 408"))
            // A whole request, a large body at loopback speed, is within its time.
            let body = Array(repeating: UInt8(ascii: "a"), count: 60_000)
            let whole = try await RawHTTP.send(Self.signIn(length: body.count) + body, port: port)
            #expect(whole.status == 403, "the form has no token: refused once read")
        }
    }

    @Test("A body refused before it has arrived (413) is not read to its end: the connection closes after the answer")
    func refusedBodyNotDrained() async throws {
        var configuration = AppConfiguration.testing
        // Neither the request's deadline nor the idle timer closes it within the test.
        configuration.requestTimeout = .seconds(120)
        configuration.idleTimeout = .seconds(120)
        try await withApp(configuration: configuration, testing: .live) { client in
            let port = try #require(client.port)
            let first = Array(repeating: UInt8(ascii: "a"), count: 100_000)
            let upload = try RawStream(Self.signIn(length: 10_000_000) + first, port: port)
            // The client goes on sending, 1 KB every 50 ms: a drain would never end.
            let sending = Self.trickle(
                upload, Array(repeating: UInt8(ascii: "a"), count: 1024), every: .milliseconds(50), count: 1000)
            defer { sending.cancel() }
            #expect(await upload.readToEnd(timeout: 15), "the server went on reading the refused body")
            #expect(upload.text.hasPrefix("HTTP/1.1 413"))
            #expect(Self.header("Connection", in: upload.text) == ["close"])
            // The server is fine: the next client is served.
            #expect(await Self.answer(port: port))
        }
    }

    @Test("One address holds at most connectionsPerAddress connections: the next is refused; others are served")
    func connectionsPerAddress() async throws {
        var configuration = AppConfiguration.testing
        configuration.connectionsPerAddress = 3
        try await withApp(configuration: configuration, testing: .live) { client in
            let port = try #require(client.port)
            // From 127.0.0.3: the test client's own connections come from 127.0.0.1.
            var held: [RawStream] = []
            for _ in 0..<3 {
                let stream = try RawStream(Self.health, port: port, source: "127.0.0.3")
                #expect(await stream.read(until: "\r\n\r\nOK", timeout: 10))
                held.append(stream)
            }
            // The fourth, from the same address, gets 503 before it says anything, and is closed.
            let refused = try RawStream([], port: port, source: "127.0.0.3")
            #expect(await refused.readToEnd(timeout: 10), "the fourth connection was kept")
            #expect(refused.text.hasPrefix("HTTP/1.1 503"))
            #expect(Self.header("Connection", in: refused.text) == ["close"])
            // Another address is served meanwhile.
            #expect(await Self.answer(port: port, source: "127.0.0.2"))
            // One closed, the address is served again (once the server has seen it close).
            held.removeFirst().disconnect()
            #expect(await Self.served(port: port, source: "127.0.0.3"), "a place freed was not given back")
            withExtendedLifetime(held) {}
        }
    }

    @Test("A trusted proxy's connections are not counted: it carries everyone's")
    func trustedProxyUncounted() async throws {
        var configuration = AppConfiguration.testing
        configuration.connectionsPerAddress = 2
        configuration.trustedProxies = ["127.0.0.3"]
        try await withApp(configuration: configuration, testing: .live) { client in
            let port = try #require(client.port)
            var held: [RawStream] = []
            for _ in 0..<4 {
                let stream = try RawStream(Self.health, port: port, source: "127.0.0.3")
                #expect(await stream.read(until: "\r\n\r\nOK", timeout: 10))
                held.append(stream)
            }
            for _ in 0..<2 {
                let stream = try RawStream(Self.health, port: port, source: "127.0.0.2")
                #expect(await stream.read(until: "\r\n\r\nOK", timeout: 10))
                held.append(stream)
            }
            let refused = try RawStream([], port: port, source: "127.0.0.2")
            #expect(await refused.readToEnd(timeout: 10))
            #expect(refused.text.hasPrefix("HTTP/1.1 503"))
            withExtendedLifetime(held) {}
        }
    }

    @Test("connectionsPerAddress 0: no limit")
    func noLimit() async throws {
        var configuration = AppConfiguration.testing
        configuration.connectionsPerAddress = 0
        try await withApp(configuration: configuration, testing: .live) { client in
            let port = try #require(client.port)
            var held: [RawStream] = []
            for _ in 0..<(AppConfiguration.defaultConnectionsPerAddress + 2) {
                let stream = try RawStream(Self.health, port: port, source: "127.0.0.3")
                #expect(await stream.read(until: "\r\n\r\nOK", timeout: 10))
                held.append(stream)
            }
            withExtendedLifetime(held) {}
        }
    }

    /// Whether a new connection from `source` is served /health within 10 s (tried again
    /// while refused).
    static func served(port: Int, source: String) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if await answer(port: port, source: source) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test("An event stream whose reader stopped reading is closed after the write timeout, and frees its place")
    func stalledStream() async throws {
        var configuration = AppConfiguration.testing
        configuration.writeTimeout = .milliseconds(500)
        try await withSignedInApp(
            configuration: configuration, dependencies: try GroupsRoutesTests.dependencies(), testing: .live
        ) { ada in
            let port = try #require(ada.port)
            try await ada.post("/groups", form: "name=Morning") { #expect($0.status == .seeOther) }
            try await ada.post("/profiles", form: "name=Evening") { #expect($0.status == .seeOther) }
            func schedule(_ day: Int) async throws {
                let date = Date().addingTimeInterval(Double(day) * 86_400)
                let text = date.formatted(.iso8601.year().month().day().dateSeparator(.dash)) + "T07:00"
                try await ada.post("/groups/1/sits", form: "profile=1&startsAt=\(text)") {
                    #expect($0.status == .seeOther)
                }
            }
            // Many upcoming sits: the stream's part is tens of KB.
            for day in 1...40 { try await schedule(day) }
            let request = Array(
                "GET /groups/1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(ada.sessionCookie)\r\n\r\n".utf8)

            // A reader that takes 4 KB and no more, while events are published.
            let stalled = try RawStream(request, port: port, receiveBuffer: 4096)
            #expect(await stalled.read(until: "HTTP/1.1 200", timeout: 10))
            for day in 41...44 { try await schedule(day) }

            // Its place is given back: five streams open again (a person may hold five).
            let deadline = ContinuousClock.now + .seconds(20)
            var opened = false
            while !opened, ContinuousClock.now < deadline {
                let streams = try (0..<5).map { _ in try RawStream(request, port: port) }
                for stream in streams { _ = await stream.read(until: "\r\n\r\n", timeout: 10) }
                opened = streams.allSatisfy { $0.text.hasPrefix("HTTP/1.1 200") }
                for stream in streams { stream.disconnect() }
                if !opened { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(opened, "the stalled stream kept its place")
            // And its connection was closed: what the kernel held arrives, then the end.
            stalled.setReceiveBuffer(1 << 20)
            #expect(await stalled.readToEnd(timeout: 10), "the stalled stream's connection was kept open")
        }
    }
}
