import Foundation
import SanghaTestSupport
import Testing

/// `sangha serve` with notifications: the contacts a push service refuses stop the start with a
/// message, as do origins that are not one; the key pair made on the first start is the one
/// every later start (and `GET /push/key`) has.
@Suite("Notifications, the binary")
struct PushEndToEndTests {
    @Test("A contact a push service refuses, or an endpoint origin that is not one, stops the start naming the flag")
    func refusedAtStart() async throws {
        let folder = try RepositoryPaths.temporaryDirectory("sangha-push-flags")
        defer { try? FileManager.default.removeItem(at: folder) }
        let serve = ["serve", "--port", "\(try SilentServer.freePort())", "--data-dir", folder.path]
        for (extra, message) in [
            (["--push-contact", "mailto:ops@localhost"], "push services refuse a contact on localhost"),
            (["--push-contact", "mailto:ops@sangha.local"], "push services refuse a contact on .local"),
            (["--push-contact", "mailto:ops@sangha.invalid"], "push services refuse a contact on .invalid"),
            (["--push-contact", "https://sangha.test/contact"], "push services refuse a contact on .test"),
            (["--push-contact", "mailto:ops@sangha.example"], "push services refuse a contact on .example"),
            (
                ["--push-contact", "ops@sangha.org"],
                "--push-contact 'ops@sangha.org' cannot be the push services' contact: it is neither mailto:ADDRESS nor an https:// URL."
            ),
            (["--push-contact", "https://"], "its URL has no host"),
            (
                ["--push-contact", "mailto:ops@sangha.org", "--push-allow-endpoint", "push.sangha.org"],
                "--push-allow-endpoint takes an origin"
            ),
            (["--push-allow-endpoint", "https://push.sangha.org"], "--push-allow-endpoint needs --push-contact"),
            (["--push-contact", "mailto:ops@sangha.org", "--push-rate", "0"], "--push-rate must be between 1 and"),
            (["--push-rate", "100"], "--push-rate needs --push-contact"),
        ] {
            let result = try await SanghaProcess.run(serve + extra)
            #expect(result.status != 0, "\(extra)")
            #expect(result.output.contains(message), "\(extra): \(result.output)")
        }
        let variable = try await SanghaProcess.run(serve, environment: ["SANGHA_PUSH_CONTACT": "mailto:ops@localhost"])
        #expect(variable.status != 0)
        #expect(variable.output.contains("SANGHA_PUSH_CONTACT 'mailto:ops@localhost' cannot be"), "\(variable.output)")
        let rate = try await SanghaProcess.run(
            serve, environment: ["SANGHA_PUSH_CONTACT": "mailto:ops@sangha.org", "SANGHA_PUSH_RATE": "fast"])
        #expect(rate.status != 0)
        #expect(rate.output.contains("SANGHA_PUSH_RATE=fast is not a valid Int"), "\(rate.output)")
    }

    @Test("The key pair is made on the first start and kept: GET /push/key answers the same after a restart")
    func keyKept() async throws {
        let folder = try RepositoryPaths.temporaryDirectory("sangha-push-key")
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = { () throws -> [String] in
            [
                "--friend-service-port", "\(try SilentServer.freePort())", "--push-contact", "mailto:ops@sangha.org",
                "--push-allow-endpoint", "http://127.0.0.1:9",
            ]
        }
        let client = HTTPClient()
        let first = try await SanghaProcess.serve(dataDirectory: folder, try arguments())
        let key = try await client.send("GET", first.baseURL.appendingPathComponent("push/key"))
        #expect(key.status == 200)
        #expect(key.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(key.body.count == 87 && key.body.hasPrefix("B"))
        #expect(first.log.contains("Notifications by Web Push are on"), "\(first.log)")
        #expect(await first.stop() == 0)
        let second = try await SanghaProcess.serve(dataDirectory: folder, try arguments())
        defer { second.stopInBackground() }
        #expect(try await client.send("GET", second.baseURL.appendingPathComponent("push/key")).body == key.body)
    }
}
