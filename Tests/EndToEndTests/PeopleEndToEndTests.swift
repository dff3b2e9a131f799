import Foundation
import SanghaTestSupport
import Testing

/// People on one running `sangha serve` with its embedded FriendService, over HTTP.
@Suite("People end to end", .serialized)
struct PeopleEndToEndTests {
    @Test("Two people never see each other's profiles or friends; sign-out ends a session; 429 after five failures")
    func twoPeople() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-e2e-people")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await SanghaProcess.serve(dataDirectory: data)
        defer { server.stopInBackground() }
        let ada = HTTPClient()
        let grace = HTTPClient()
        try await ada.signUp(at: server.baseURL, username: "ada", name: "Ada Lovelace")
        try await grace.signUp(at: server.baseURL, username: "grace", name: "Grace Hopper")
        let profiles = server.baseURL.appendingPathComponent("profiles")
        let friends = server.baseURL.appendingPathComponent("friends")

        let created = try await ada.send("POST", profiles, form: ["name": "Ada's morning"])
        let editor = server.baseURL.appendingPathComponent(try #require(created.header("Location")))
        let added = try await ada.send(
            "POST", friends, form: ["firstname": "Jane", "lastname": "Doe", "phonenumber": "+15550100"])
        #expect(added.status == 303)
        #expect(try await ada.send("GET", friends).body.contains("Jane Doe"))

        #expect(try await grace.send("GET", editor).status == 404)
        #expect(!(try await grace.send("GET", profiles).body.contains("morning")))
        let graceFriends = try await grace.send("GET", friends)
        #expect(graceFriends.status == 200)
        #expect(graceFriends.body.contains("No data available"))
        #expect(!graceFriends.body.contains("Jane"))
        #expect(try await grace.send("GET", friends.appendingPathComponent("1/edit")).status == 404)
        let me = try await grace.send("GET", server.baseURL.appendingPathComponent("me"))
        #expect(me.body.contains("<h1>Grace Hopper</h1>"))
        #expect(!me.body.contains("Jane"))

        // Signing out ends the session: the same cookie no longer serves a page.
        let session = try #require(ada.cookie(named: "sangha_session"))
        let out = try await ada.send("POST", server.baseURL.appendingPathComponent("sign-out"), form: [:])
        #expect(out.status == 303)
        #expect(out.header("Location") == "/sign-in")
        let replayed = try await HTTPClient().send("GET", editor, headers: ["Cookie": "sangha_session=\(session)"])
        #expect(replayed.status == 303)
        #expect(replayed.header("Location") == "/sign-in?next=\(editor.path)")

        // Five wrong passwords, then even the right one waits.
        for _ in 1...5 {
            #expect(try await ada.signIn(at: server.baseURL, password: "not the password").status == 401)
        }
        let refused = try await ada.signIn(at: server.baseURL)
        #expect(refused.status == 429)
        #expect(refused.body.contains("Too many attempts. Try again in 15 minutes."))
        // Another username is not held back by them.
        let other = HTTPClient()
        #expect(try await other.signIn(at: server.baseURL, username: "grace", next: "/me").header("Location") == "/me")
    }

    @Test("A group's invitation link is logged by its route, never with its token")
    func invitationTokenNotLogged() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-e2e-log")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await SanghaProcess.serve(dataDirectory: data)
        defer { server.stopInBackground() }
        let ada = HTTPClient()
        try await ada.signUp(at: server.baseURL)
        let token = String(repeating: "7f", count: 32)
        let link = server.baseURL.appendingPathComponent("groups/invite/\(token)")
        #expect(try await ada.send("GET", link).status == 404)
        #expect(try await ada.send("GET", server.baseURL.appendingPathComponent("groups")).status == 200)
        let log = server.log
        #expect(!log.contains(token))
        #expect(log.contains("GET /groups/invite/{token} 404"))
        #expect(log.contains("GET /groups 200"))
    }

    @Test(
        "sangha people, while serve runs: list, invite, a reset link that sets the password, make-admin, disable and enable; never the last administrator"
    )
    func operatorsCommandLine() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-e2e-people-cli")
        defer { try? FileManager.default.removeItem(at: data) }
        // Sign-up by invitation only (the last --sign-up wins): the first account needs none.
        let server = try await SanghaProcess.serve(
            dataDirectory: data, ["--sign-up", "invite", "--friend-service-port", "\(try SilentServer.freePort())"])
        defer { server.stopInBackground() }
        let ada = HTTPClient()
        try await ada.signUp(at: server.baseURL, username: "ada", name: "Ada Lovelace")
        func people(_ arguments: String...) async throws -> (status: Int32, output: String) {
            try await SanghaProcess.run(
                ["people"] + arguments + ["--data-dir", data.path, "--public-url", server.baseURL.absoluteString])
        }

        // An invitation, printed with the public address, admits Grace (and no one without it).
        let signUp = server.baseURL.appendingPathComponent("sign-up")
        let grace = ["name": "Grace Hopper", "username": "grace", "password": HTTPClient.testPassword]
        let stranger = HTTPClient()
        _ = try await stranger.send("GET", signUp)
        #expect(try await stranger.send("POST", signUp, form: grace).status != 303)
        let invite = try await people("invite")
        #expect(invite.status == 0)
        let match = invite.output.firstMatch(
            of: /http:\/\/127\.0\.0\.1:\d+\/sign-up\?invitation=([0-9a-f]{64})/)
        let link = try #require(match)
        let invited = HTTPClient()
        _ = try await invited.send("GET", try #require(URL(string: String(link.output.0))))
        var withInvitation = grace
        withInvitation["invitation"] = String(link.output.1)
        #expect(try await invited.send("POST", signUp, form: withInvitation).status == 303)

        let list = try await people("list")
        #expect(list.status == 0)
        #expect(list.output.contains("ada\tAda Lovelace\tadministrator\tlast sign-in"))
        #expect(list.output.contains("grace\tGrace Hopper\tlast sign-in"))

        // The only administrator is not disabled; with another one, they are.
        let refused = try await people("disable", "ada")
        #expect(refused.status != 0)
        #expect(refused.output.contains("Ada Lovelace is the only administrator who can sign in"))
        #expect(try await people("make-admin", "grace").output.contains("Grace Hopper is an administrator."))
        #expect(
            try await people("disable", "ada").output.contains("Ada Lovelace is disabled and signed out everywhere."))
        #expect(try await HTTPClient().signIn(at: server.baseURL, username: "ada").status != 303)
        #expect(try await people("enable", "ada").output.contains("Ada Lovelace can sign in again."))

        // A reset link sets a new password, once.
        let reset = try await people("reset-link", "ada")
        let token = try #require(reset.output.firstMatch(of: /reset-password\?token=([0-9a-f]{64})/)?.1)
        let browser = HTTPClient()
        let page = server.baseURL.appendingPathComponent("reset-password")
        _ = try await browser.send("GET", try #require(URL(string: page.absoluteString + "?token=\(token)")))
        let set = try await browser.send(
            "POST", page, form: ["token": String(token), "newPassword": "a new long passphrase"])
        #expect(set.status == 303)
        #expect(
            try await HTTPClient().signIn(at: server.baseURL, username: "ada", password: "a new long passphrase").status
                == 303)

        let unknown = try await people("make-admin", "zed")
        #expect(unknown.status != 0)
        #expect(unknown.output.contains("There is no one with the username zed."))
        let help = try await SanghaProcess.run(["people", "--help"])
        for subcommand in ["list", "invite", "reset-link", "make-admin", "disable", "enable"] {
            #expect(help.output.contains(subcommand))
        }
    }

    @Test(
        "What sangha people changes, a running serve sees at once: a new administrator's /admin answers, a disabled person is signed out and their group stream ends; links name serve's own port"
    )
    func operatorsChangesReachServe() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-e2e-people-live")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await SanghaProcess.serve(
            dataDirectory: data, ["--sign-up", "invite", "--friend-service-port", "\(try SilentServer.freePort())"])
        defer { server.stopInBackground() }
        let base = server.baseURL
        try await HTTPClient().signUp(at: base, username: "ada", name: "Ada Lovelace")
        func people(_ arguments: String...) async throws -> (status: Int32, output: String) {
            try await SanghaProcess.run(["people"] + arguments + ["--data-dir", data.path])
        }

        // Without --public-url, the link names the port serve listens on, and says it is local.
        let invite = try await people("invite")
        let link = try #require(
            invite.output.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\/sign-up\?invitation=([0-9a-f]{64})/))
        #expect(Int(link.output.1) == server.port)
        #expect(invite.output.contains("this link works on this machine only"))
        let grace = HTTPClient()
        _ = try await grace.send("GET", try #require(URL(string: String(link.output.0))))
        let signedUp = try await grace.send(
            "POST", base.appendingPathComponent("sign-up"),
            form: [
                "name": "Grace Hopper", "username": "grace", "password": HTTPClient.testPassword,
                "invitation": String(link.output.2),
            ])
        #expect(signedUp.status == 303)

        // Grace's sign-in is served, and kept in serve's memory, before each change.
        let admin = base.appendingPathComponent("admin")
        #expect(try await grace.send("GET", admin).status == 404)
        #expect(try await people("make-admin", "grace").status == 0)
        // True once the command has returned: its next page, not some page later.
        #expect(try await grace.send("GET", admin).status == 200)

        // Grace listens to her group's page; disabled, she is signed out and the stream ends.
        let group = try await grace.send("POST", base.appendingPathComponent("groups"), form: ["name": "Evening"])
        let groupPath = try #require(group.header("Location"))
        let session = try #require(grace.cookie(named: "sangha_session"))
        let request =
            "GET \(groupPath)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: sangha_session=\(session)\r\n\r\n"
        let stream = try RawStream(Array(request.utf8), port: server.port)
        #expect(await stream.read(until: "event: sitting-now", timeout: 30))
        #expect(try await grace.send("GET", base).status == 200)
        #expect(try await people("disable", "grace").output.contains("Grace Hopper is disabled"))
        #expect(try await grace.send("GET", base).header("Location")?.hasPrefix("/sign-in") == true)
        // The stream's response ends (its last chunk; the connection itself may stay open).
        #expect(
            await stream.read(until: "\r\n0\r\n\r\n", timeout: 30), "the disabled person's group stream stayed open")
    }
}
