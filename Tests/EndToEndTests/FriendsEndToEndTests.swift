import Foundation
import SanghaTestSupport
import Testing

/// `sangha serve` as a person runs it, with its embedded FriendService, driven over HTTP.
@Suite("Friends end to end", .serialized)
struct FriendsEndToEndTests {
    /// A browser tab: it keeps the cookies, and its forms carry the CSRF token.
    let client = HTTPClient()

    @Test("Add, edit, search and delete a friend; restart; the data is still there")
    func friendsLifecycle() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-e2e")
        defer { try? FileManager.default.removeItem(at: data) }
        var server = try await SanghaProcess.serve(dataDirectory: data)
        try await client.signUp(at: server.baseURL)
        let friends = server.baseURL.appendingPathComponent("friends")
        let first = try await client.send("GET", friends)
        #expect(first.status == 200)

        // A form post from another site is refused.
        let forged = try await HTTPClient().send(
            "POST",
            friends,
            form: ["firstname": "Eve", "lastname": "Forged", "phonenumber": "123"],
            headers: ["Origin": "http://evil.example"]
        )
        #expect(forged.status == 403)

        // A page asked for under another host name is not served (DNS rebinding).
        let rebound = try await client.send("GET", friends, headers: ["Host": "evil.example:\(server.port)"])
        #expect(rebound.status == 421)

        // Add
        let added = try await client.send(
            "POST",
            friends,
            form: ["firstname": "Jane", "lastname": "Doe", "phonenumber": "+1 555 0100"]
        )
        #expect(added.status == 303)
        #expect(added.header("Location") == "/friends")
        let list = try await client.send("GET", friends)
        #expect(list.status == 200)
        #expect(list.body.contains("Added Jane Doe."))
        #expect(list.body.contains("+15550100"))

        // A second friend, then search
        _ = try await client.send(
            "POST", friends, form: ["firstname": "Kenji", "lastname": "Satō", "phonenumber": "0312345678"])
        let search = try await client.send("GET", URL(string: "\(friends.absoluteString)?q=sato")!)
        #expect(search.body.contains("Kenji Satō"))
        #expect(!search.body.contains("Jane Doe"))

        // Invalid input changes nothing
        let invalid = try await client.send(
            "POST", friends, form: ["firstname": "", "lastname": "X", "phonenumber": "1"])
        #expect(invalid.status == 422)
        #expect(invalid.body.contains("First name is required."))

        // Edit Jane (id 1)
        let edit = try await client.send("GET", friends.appendingPathComponent("1/edit"))
        #expect(edit.status == 200)
        #expect(edit.body.contains("value=\"Jane\""))
        let saved = try await client.send(
            "POST",
            friends.appendingPathComponent("1"),
            form: ["firstname": "Janet", "lastname": "Doe", "phonenumber": "+15550100"]
        )
        #expect(saved.status == 303)

        // Delete Kenji (id 2)
        let deleted = try await client.send(
            "POST", friends.appendingPathComponent("2/delete"), form: ["fullName": "Kenji Satō"])
        #expect(deleted.status == 303)
        let afterDelete = try await client.send("GET", friends)
        #expect(afterDelete.body.contains("Removed Kenji Satō."))
        #expect(afterDelete.body.contains("Janet Doe"))
        #expect(!afterDelete.body.contains("<span class=\"item-name\">Kenji"))

        // One log line per request, with its status.
        #expect(server.log.contains("POST /friends 303"))
        #expect(server.log.contains("POST /friends 422"))

        // Restart on the same data: SIGTERM exits cleanly, and the friends are still there.
        #expect(await server.stop() == 0, "sangha did not exit cleanly:\n\(server.log)")
        server = try await SanghaProcess.serve(dataDirectory: data)
        let restarted = try await client.send("GET", server.baseURL.appendingPathComponent("friends"))
        #expect(restarted.body.contains("Janet Doe"))
        #expect(!restarted.body.contains("Eve"))
        let json = try await client.send(
            "GET", server.baseURL.appendingPathComponent("friends"), headers: ["Accept": "application/json"])
        #expect(json.body.contains("\"fullName\":\"Janet Doe\""))
        #expect(!json.body.contains("Kenji"))
        await server.stop()
    }

    @Test("A dead remote FriendService shows the error row within the timeout")
    func deadFriendService() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-e2e-dead")
        defer { try? FileManager.default.removeItem(at: data) }
        let hanging = try SilentServer()
        let server = try await SanghaProcess.serve(
            dataDirectory: data,
            ["--friend-service-url", "http://127.0.0.1:\(hanging.port)", "--friend-service-timeout", "1"]
        )
        defer { server.stopInBackground() }
        try await client.signUp(at: server.baseURL)
        let start = ContinuousClock.now
        let page = try await client.send("GET", server.baseURL.appendingPathComponent("friends"))
        #expect(page.status == 200)
        #expect(page.body.contains("Loading failed, check network connection"))
        #expect(ContinuousClock.now - start < .seconds(5))
        withExtendedLifetime(hanging) {}
    }

    @Test("sangha serve --help names every option and its environment variable")
    func help() async throws {
        let (status, output) = try await SanghaProcess.run(["serve", "--help"])
        #expect(status == 0)
        for option in [
            "--port", "--data-dir", "--friend-service-url", "--friend-service-token", "--friend-service-timeout",
            "--public-url", "SANGHA_PUBLIC_URL",
        ] {
            #expect(output.contains(option))
        }
        #expect(output.contains("SANGHA_PORT"))
    }

    @Test("A bad environment value stops the start with a clear message")
    func badEnvironment() async throws {
        let (status, output) = try await SanghaProcess.run(["serve"], environment: ["SANGHA_PORT": "eighty"])
        #expect(status != 0)
        #expect(output.contains("SANGHA_PORT=eighty is not a valid Int"))
        // A switch is on or off; another word is not taken as off.
        let (devStatus, devOutput) = try await SanghaProcess.run(["serve"], environment: ["SANGHA_DEV": "maybe"])
        #expect(devStatus != 0)
        #expect(devOutput.contains("SANGHA_DEV=maybe is neither on (1, true, yes, on) nor off"), "\(devOutput)")
    }

    @Test("--metrics-allowed takes IP addresses; a host name stops the start")
    func metricsAllowed() async throws {
        let (status, output) = try await SanghaProcess.run(["serve", "--metrics-allowed", "prometheus.internal"])
        #expect(status != 0)
        #expect(
            output.contains(
                "--metrics-allowed takes IP addresses, like 10.0.0.7 or fd00::7, got 'prometheus.internal'."))
        let (_, environment) = try await SanghaProcess.run(
            ["serve"], environment: ["SANGHA_METRICS_ALLOWED": "10.0.0.7, nope"])
        #expect(environment.contains("got 'nope'"))
    }
}

@Suite("sangha serve on the network")
struct ServeRemoteTests {
    @Test("Listening beyond loopback needs --allow-remote")
    func needsFlag() async throws {
        let (status, output) = try await SanghaProcess.run(["serve", "--host", "0.0.0.0"])
        #expect(status != 0)
        #expect(output.contains("Pass --allow-remote"))
    }

    @Test("With --allow-remote it starts, and warns")
    func warns() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-remote")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await SanghaProcess.serve(
            dataDirectory: data,
            ["--host", "0.0.0.0", "--allow-remote", "--friend-service-port", "\(try SilentServer.freePort())"]
        )
        #expect(server.log.contains("Listening on 0.0.0.0 over plain HTTP"))
        await server.stop()
    }
}
