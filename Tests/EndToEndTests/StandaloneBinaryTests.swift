import Foundation
import SanghaTestSupport
import Testing

/// `sangha serve` started from a folder that holds nothing of the repository, as a person who
/// copied the binary would start it.
@Suite("The binary stands alone", .serialized)
struct StandaloneBinaryTests {
    let client = HTTPClient()

    @Test("From an empty folder: every page renders and the static files it links are served")
    func fromAnyFolder() async throws {
        let folder = try RepositoryPaths.temporaryDirectory("sangha-standalone")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await SanghaProcess.serve(dataDirectory: folder)
        defer { server.stopInBackground() }
        try await client.signUp(at: server.baseURL)
        for path in ["/", "/profiles", "/friends", "/friends/new", "/me", "/settings"] {
            let page = try await client.send("GET", server.baseURL.appendingPathComponent(path))
            #expect(page.status == 200, "\(path): \(page.status)")
        }
        let home = try await client.send("GET", server.baseURL)
        let stylesheet = try #require(home.body.firstMatch(of: /href="(\/css\/sangha\.[0-9a-f]{16}\.css)"/)?.1)
        let css = try await client.send("GET", server.baseURL.appendingPathComponent(String(stylesheet)))
        #expect(css.status == 200)
        #expect(css.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(css.header("Set-Cookie") == nil)
        #expect(css.body.contains(".skip-link"))
        let icon = try await client.send("GET", server.baseURL.appendingPathComponent("favicon.svg"))
        #expect(icon.status == 200)
        #expect(icon.header("Content-Type") == "image/svg+xml")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Templates").path))
    }

    @Test("--dev from a folder without Templates/ stops the start, naming what is missing")
    func developmentNeedsTemplates() async throws {
        let folder = try RepositoryPaths.temporaryDirectory("sangha-standalone-dev")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await SanghaProcess.run(
            [
                "serve", "--dev", "--port", "\(try SilentServer.freePort())", "--data-dir", folder.path,
                "--resources-dir", folder.path,
            ])
        #expect(result.status != 0)
        #expect(result.output.contains("Templates"), "\(result.output)")
    }

    @Test("Half an identity provider, or passwords off without one, stops the start naming the flag")
    func identityProviderFlags() async throws {
        let folder = try RepositoryPaths.temporaryDirectory("sangha-standalone-oidc")
        defer { try? FileManager.default.removeItem(at: folder) }
        let serve = ["serve", "--port", "\(try SilentServer.freePort())", "--data-dir", folder.path]
        for (extra, message) in [
            (["--oidc-issuer", "https://id.example"], "--oidc-issuer needs --oidc-client-id"),
            (
                ["--oidc-issuer", "https://id.example", "--oidc-client-id", "sangha"],
                "--oidc-issuer needs --oidc-client-secret"
            ),
            (["--oidc-client-id", "sangha"], "need --oidc-issuer"),
            (["--oidc-issuer", "id.example", "--oidc-client-id", "a", "--oidc-client-secret", "b"], "issuer URL"),
            (["--password-sign-in", "off"], "pass --oidc-issuer too"),
            (["--password-sign-in", "maybe"], "--password-sign-in must be on or off"),
        ] {
            let result = try await SanghaProcess.run(serve + extra)
            #expect(result.status != 0, "\(extra)")
            #expect(result.output.contains(message), "\(extra): \(result.output)")
        }
    }

    @Test("--password-sign-in off ends at start the sessions a password started, and says so in the log")
    func passwordsOffEndsPasswordSessions() async throws {
        let folder = try RepositoryPaths.temporaryDirectory("sangha-standalone-passwords-off")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A provider that is down: nothing here goes to it.
        let provider = [
            "--oidc-issuer", "http://127.0.0.1:\(try SilentServer.freePort())", "--oidc-client-id", "sangha",
            "--oidc-client-secret", "secret",
        ]
        let client = HTTPClient()
        let before = try await SanghaProcess.serve(
            dataDirectory: folder, ["--friend-service-port", "\(try SilentServer.freePort())"] + provider)
        try await client.signUp(at: before.baseURL)
        #expect(try await client.send("GET", before.baseURL.appendingPathComponent("settings")).status == 200)
        #expect(await before.stop() == 0)
        let after = try await SanghaProcess.serve(
            dataDirectory: folder,
            ["--friend-service-port", "\(try SilentServer.freePort())", "--password-sign-in", "off"] + provider)
        defer { after.stopInBackground() }
        // The password's session has ended: Settings sends the browser to sign in.
        let settings = try await client.send("GET", after.baseURL.appendingPathComponent("settings"))
        #expect(settings.status == 303)
        #expect(settings.header("Location")?.hasPrefix("/sign-in") == true)
        #expect(after.log.contains("the sign-in sessions a password started have ended"), "\(after.log)")
        #expect(after.log.contains("ended=1"), "\(after.log)")
    }

    @Test("With an identity provider that cannot be reached, sangha starts, and its button says so in bounded time")
    func unreachableProvider() async throws {
        let folder = try RepositoryPaths.temporaryDirectory("sangha-standalone-oidc-down")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A port nothing listens on: refused at once, as a provider that is down.
        let issuer = "http://127.0.0.1:\(try SilentServer.freePort())"
        let server = try await SanghaProcess.serve(
            dataDirectory: folder,
            [
                "--friend-service-port", "\(try SilentServer.freePort())", "--oidc-issuer", issuer,
                "--oidc-client-id", "sangha", "--oidc-client-secret", "secret", "--oidc-name", "Pocket ID",
            ])
        defer { server.stopInBackground() }
        let client = HTTPClient()
        let page = try await client.send("GET", server.baseURL.appendingPathComponent("sign-in"))
        #expect(page.status == 200 && page.body.contains("Sign in with Pocket ID"))
        let started = ContinuousClock.now
        let response = try await client.send("GET", server.baseURL.appendingPathComponent("sign-in/oidc/start"))
        #expect(response.status == 503)
        #expect(response.body.contains("Pocket ID cannot be reached. Try again later."))
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(await server.stop() == 0)
    }
}
