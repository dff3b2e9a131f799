import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import SanghaWeb

/// The request log never shows a secret a path carries: a calendar feed's token, a group's
/// invitation token, whatever their case or encoding, matched by their route or not.
@Suite("Request log")
struct RequestLogTests {
    /// Every line logged, as its message.
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    struct Capture: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lines.lines.withLock { $0.append(event.message.description) }
        }
    }

    static let token = String(repeating: "7f", count: 32)

    @Test("A calendar feed or an invitation path, in any case, routed or 404, is logged without its token")
    func secretsNotLogged() async throws {
        let lines = Lines()
        let logger = Logger(label: "test") { _ in Capture(lines: lines) }
        let app = try await buildApplication(
            configuration: .testing, dependencies: TestDependencies.make(), logger: logger)
        let token = Self.token
        let upper = token.uppercased()
        let paths = [
            "/calendar/\(token).ics", "/calendar/\(token).ICS", "/calendar/\(upper).ICS", "/CALENDAR/\(token).ics",
            "/Calendar/\(upper).Ics", "/calendar/\(token)", "/calendar/\(token).ics/more", "//calendar/\(token).ics",
            "/%63alendar/\(token).ics", "/calendar/%37\(token.dropFirst()).ics",
            "/groups/invite/\(token)", "/GROUPS/INVITE/\(upper)", "/groups/invite/\(token)/join",
            "/groups/%69nvite/\(token)", "/elsewhere/\(token)", "/x/../calendar/\(upper).ICS",
        ]
        try await app.test(.router) { client in
            for path in paths {
                try await client.execute(uri: path, method: .get) { _ in }
            }
            // A password reset's and an invitation's tokens are in the query, never logged.
            try await client.execute(uri: "/reset-password?token=\(token)", method: .get) { _ in }
            try await client.execute(uri: "/sign-up?invitation=\(token)", method: .get) { _ in }
            try await client.execute(uri: "/health", method: .get) { _ in }
        }
        let logged = lines.all.joined(separator: "\n")
        for secret in [token, upper, String(token.dropFirst()), String(upper.dropFirst())] {
            #expect(!logged.localizedCaseInsensitiveContains(secret), "\(logged)")
        }
        // Each request's line, its time taken aside, in the order sent: the calendar paths, routed
        // or not, as their route; the invitation's (303 to sign in when routed); any other segment
        // holding a token's run of hex digits as {token}; the queries never.
        let calendar = Array(repeating: "GET /calendar/{token}.ics 404", count: 10)
        let invitations =
            ["GET /groups/invite/{token} 303"] + Array(repeating: "GET /groups/invite/{token} 404", count: 3)
        #expect(
            lines.all.map { $0.replacing(#/ [0-9]+(\.[0-9]+)? ms$/#, with: "") }
                == calendar + invitations + [
                    "GET /elsewhere/{token} 404", "GET /x/../calendar/{token} 404", "GET /reset-password 404",
                    "GET /sign-up 200", "GET /health 200",
                ])
    }

    @Test("The path as logged: a secret route's token hidden in any case or encoding; other paths as they are")
    func loggedPath() {
        let token = Self.token
        #expect(LoggedPath.of("/calendar/\(token).ics", route: "/calendar/{token}.ics") == "/calendar/{token}.ics")
        #expect(LoggedPath.of("/calendar/\(token.uppercased()).ICS", route: nil) == "/calendar/{token}.ics")
        #expect(LoggedPath.of("/CALENDAR/abc", route: nil) == "/calendar/{token}.ics")
        #expect(LoggedPath.of("/groups/Invite/abc/join", route: nil) == "/groups/invite/{token}")
        #expect(LoggedPath.of("/groups/%49nvite/abc", route: nil) == "/groups/invite/{token}")
        #expect(LoggedPath.of("/nothing/\(token)/x", route: nil) == "/nothing/{token}/x")
        // Nothing else changes.
        #expect(LoggedPath.of("/health", route: "/health") == "/health")
        #expect(LoggedPath.of("/groups/12/events", route: "/groups/{id}/events") == "/groups/12/events")
        #expect(LoggedPath.of("/calendar", route: nil) == "/calendar")
        #expect(LoggedPath.of("/css/sangha.5e1c0a3b9d2f7e64.css", route: nil) == "/css/sangha.5e1c0a3b9d2f7e64.css")
        #expect(LoggedPath.of("/friends/%41", route: nil) == "/friends/%41")
    }
}
