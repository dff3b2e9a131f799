import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaTestSupport
import SanghaWeb
import Testing

/// A connection that sends nothing is closed after `AppConfiguration.idleTimeout`: one that
/// never finishes its request holds no socket for long.
@Suite("Idle connections")
struct IdleTimeoutTests {
    @Test("A request left half sent, and a connection idle between requests, are closed after the idle timeout")
    func idleConnectionsClosed() async throws {
        var configuration = AppConfiguration.testing
        configuration.idleTimeout = .milliseconds(300)
        try await withApp(configuration: configuration, testing: .live) { client in
            let port = try #require(client.port)
            // The head never ends.
            let half = try RawStream(Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8), port: port)
            let started = ContinuousClock.now
            #expect(await half.read(until: "never sent", timeout: 10) == false)
            #expect(ContinuousClock.now - started < .seconds(8), "closed by the server, not by the test's timeout")
            // A whole request is answered; the connection is then closed once idle.
            let whole = try RawStream(Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), port: port)
            #expect(await whole.read(until: "OK", timeout: 10))
            let idle = ContinuousClock.now
            #expect(await whole.read(until: "never sent", from: whole.text.count, timeout: 10) == false)
            #expect(ContinuousClock.now - idle < .seconds(8))
        }
    }
}
