import Foundation
import SanghaTestSupport
import Synchronization
import Testing

/// Two `sangha serve` instances on one PostgreSQL server of the test's own, as behind a load
/// balancer: what one writes the other shows, a stale save is refused across them, one killed
/// mid-write loses nothing it acknowledged, and the database going away and coming back costs
/// a 503 and no restart.
@Suite("Two instances on PostgreSQL", .serialized, .enabled(if: TestPostgresServer.runs))
struct PostgresEndToEndTests {
    static func instance(_ database: TestPostgresServer, _ name: String) async throws -> (SanghaProcess, URL) {
        let data = try RepositoryPaths.temporaryDirectory("sangha-pg-\(name)")
        let process = try await SanghaProcess.serve(
            dataDirectory: data,
            ["--database-url", database.url, "--friend-service-port", "\(try SilentServer.freePort())"])
        return (process, data)
    }

    @Test(
        "A change on one is seen on the other; a stale save there is 409 with the values kept; the database stopped and started"
    )
    func twoInstances() async throws {
        try await TestPostgresServer.with { database in
            let (one, oneData) = try await Self.instance(database, "one")
            let (two, twoData) = try await Self.instance(database, "two")
            defer {
                one.stopInBackground()
                two.stopInBackground()
                try? FileManager.default.removeItem(at: oneData)
                try? FileManager.default.removeItem(at: twoData)
            }
            let client = HTTPClient()
            // Signed up on one, the same session is served by the other.
            try await client.signUp(at: one.baseURL)
            let created = try await client.send(
                "POST", one.baseURL.appendingPathComponent("profiles"), form: ["name": "Shared"])
            #expect(created.status == 303)
            let path = try #require(created.header("Location"))
            #expect(try await client.send("GET", two.baseURL.appendingPathComponent(path)).body.contains("Shared"))

            // Both loaded version 1; one saves first, the other's save is stale.
            let form = ["version": "1", "name": "Shared", "main.duration": "20"]
            let first = try await client.send("POST", one.baseURL.appendingPathComponent(path), form: form)
            #expect(first.status == 303)
            var stale = form
            stale["name"] = "Stale on two"
            let conflict = try await client.send("POST", two.baseURL.appendingPathComponent(path), form: stale)
            #expect(conflict.status == 409)
            #expect(conflict.body.contains("value=\"Stale on two\""))
            let seen = try await client.send(
                "GET", two.baseURL.appendingPathComponent(path), headers: ["Accept": "application/json"])
            #expect(seen.body.contains("\"value\":\"20:00\""))

            // The database goes away: a page that needs it says so within its budget.
            try await database.halt()
            let start = ContinuousClock.now
            let down = try await client.send("GET", two.baseURL.appendingPathComponent(path))
            #expect(ContinuousClock.now - start < .seconds(5))
            #expect(down.status == 503)
            #expect(down.body.contains("The database is not reachable. Try again in a moment."))
            #expect(try await client.send("GET", two.baseURL.appendingPathComponent("health")).status == 200)
            // Three calls in a row found it out of reach: the next pages do not wait for it, however
            // many come at once (less than one call's bound, 2 s, for ten).
            for _ in 0..<2 { _ = try await client.send("GET", two.baseURL.appendingPathComponent(path)) }
            let burst = ContinuousClock.now
            try await withThrowingTaskGroup(of: HTTPClient.Response.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await client.send("GET", two.baseURL.appendingPathComponent(path)) }
                }
                for try await page in group {
                    #expect(page.status == 503)
                    #expect(page.body.contains("The database is not reachable. Try again in a moment."))
                }
            }
            #expect(ContinuousClock.now - burst < .seconds(2), "pages waited for the database")
            #expect(
                try await client.send("GET", two.baseURL.appendingPathComponent("metrics")).body.contains(
                    #"sangha_database_breaker_transitions_total{to="open"}"#))

            // It comes back: the same instances serve again, without a restart.
            try await database.resume()
            var back = try await client.send("GET", two.baseURL.appendingPathComponent(path))
            // (A `SELECT 1` finds it back within the breaker's cool-off, at most 10 s, and its bound.)
            for _ in 0..<150 where back.status != 200 {
                try await Task.sleep(for: .milliseconds(200))
                back = try await client.send("GET", two.baseURL.appendingPathComponent(path))
            }
            #expect(back.status == 200)
            #expect(back.body.contains("Shared"))
            #expect(try await client.send("GET", one.baseURL.appendingPathComponent("profiles")).status == 200)

            // The operator saw it: the database's calls by outcome, at /metrics.
            let metrics = try await client.send("GET", two.baseURL.appendingPathComponent("metrics")).body
            #expect(metrics.contains(#"sangha_database_call_duration_seconds_count{outcome="ok"}"#))
            #expect(metrics.contains(#"sangha_database_call_duration_seconds_count{outcome="unreachable"}"#))
            #expect(metrics.contains("sangha_database_connection_wait_seconds_bucket"))
            #expect(metrics.contains(#"route="/profiles/{id}""#))
        }
    }

    @Test(
        "Sitting now across instances: a stream on two hears a sit start and stop on one, and ends when its sign-in ends there"
    )
    func sittingNowAcrossInstances() async throws {
        try await TestPostgresServer.with { database in
            let (one, oneData) = try await Self.instance(database, "live-one")
            let (two, twoData) = try await Self.instance(database, "live-two")
            defer {
                one.stopInBackground()
                two.stopInBackground()
                try? FileManager.default.removeItem(at: oneData)
                try? FileManager.default.removeItem(at: twoData)
            }
            let ada = HTTPClient()
            try await ada.signUp(at: one.baseURL)
            let bob = HTTPClient()
            try await bob.signUp(at: two.baseURL, username: "bob", name: "Bob Brown")
            let group = try await ada.send("POST", one.baseURL.appendingPathComponent("groups"), form: ["name": "Zen"])
            #expect(group.header("Location") == "/groups/1")
            let invitation = try await ada.send(
                "POST", one.baseURL.appendingPathComponent("groups/1/invitations"), form: [:])
            let token = try #require(invitation.body.firstMatch(of: /\/groups\/invite\/([0-9a-f]{64})/)).1
            let joined = try await bob.send(
                "POST", two.baseURL.appendingPathComponent("groups/invite/\(token)"), form: [:])
            #expect(joined.status == 303)
            let profile = try await ada.send(
                "POST", one.baseURL.appendingPathComponent("profiles"), form: ["name": "Evening"])
            let profileID = try #require(profile.header("Location")?.split(separator: "/").last.map(String.init))

            // Bob's page listens on two.
            let session = try #require(bob.cookie(named: "sangha_session"))
            let stream = try RawStream(
                RawHTTP.request(
                    "GET", "/groups/1/events", headers: [("Cookie", "sangha_session=\(session)")], port: two.port),
                port: two.port)
            #expect(await stream.read(until: "retry: 2000\n\n", timeout: 5))
            #expect(stream.text.hasPrefix("HTTP/1.1 200"))
            #expect(stream.text.lowercased().contains("content-type: text/event-stream"))

            // Ada sits on one: NOTIFY carries it to two, whose stream sends the section.
            var mark = stream.text.count
            let sit = try await ada.send(
                "POST", one.baseURL.appendingPathComponent("sitting"), form: ["profile": profileID, "seconds": "600"])
            #expect(sit.status == 204)
            #expect(await stream.read(until: "<strong>Ada Lovelace</strong> · Evening", from: mark, timeout: 2))
            #expect(stream.text.contains("event: sitting-now"))
            mark = stream.text.count
            let stop = try await ada.send("POST", one.baseURL.appendingPathComponent("sitting/stop"), form: [:])
            #expect(stop.status == 204)
            #expect(await stream.read(until: "No one is sitting now.", from: mark, timeout: 2))

            // Bob signs out on one: his stream on two ends.
            let started = ContinuousClock.now
            #expect(try await bob.send("POST", one.baseURL.appendingPathComponent("sign-out"), form: [:]).status == 303)
            #expect(await !stream.read(until: "never sent", timeout: 5))
            #expect(ContinuousClock.now - started < .seconds(4), "ended by the sign-out, not by the time out")
        }
    }

    @Test("kill -9 of one instance during a loop of saves: every acknowledged save is stored; the other serves on")
    func killDuringSaves() async throws {
        try await TestPostgresServer.with { database in
            let (one, oneData) = try await Self.instance(database, "killed")
            let (two, twoData) = try await Self.instance(database, "survivor")
            defer {
                two.stopInBackground()
                try? FileManager.default.removeItem(at: oneData)
                try? FileManager.default.removeItem(at: twoData)
            }
            let client = HTTPClient()
            try await client.signUp(at: one.baseURL)
            let acknowledged = Mutex<[String]>([])
            let profiles = one.baseURL.appendingPathComponent("profiles")
            let saving = Task {
                for index in 1...10_000 {
                    let name = "Saved \(index)"
                    guard
                        let response = try? await client.send(
                            "POST", profiles, form: ["name": name])
                    else { return }
                    if response.status == 303 { acknowledged.withLock { $0.append(name) } }
                }
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while acknowledged.withLock({ $0.count }) < 20, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            try #require(acknowledged.withLock { $0.count } >= 20, "the saves did not start")
            await one.kill()
            await saving.value
            let saved = acknowledged.withLock { $0 }

            let list = try await client.send(
                "GET", two.baseURL.appendingPathComponent("profiles"), headers: ["Accept": "application/json"])
            #expect(list.status == 200)
            var stored = Set<String>()
            var page = 1
            while true {
                let response = try await client.send(
                    "GET", URL(string: "\(two.baseURL)/profiles?page=\(page)")!,
                    headers: ["Accept": "application/json"])
                guard response.status == 200 else { break }
                let names = try JSONDecoder().decode(ProfilesJSON.self, from: Data(response.body.utf8)).rows
                stored.formUnion(names.map(\.name))
                page += 1
            }
            #expect(Set(saved).isSubset(of: stored), "lost: \(Set(saved).subtracting(stored).sorted())")
            #expect(saved.count >= 20)
        }
    }

    struct ProfilesJSON: Decodable {
        struct Row: Decodable { let name: String }
        let rows: [Row]
    }

    @Test("sangha people on PostgreSQL, while an instance serves: list, a reset link, make-admin, disable")
    func operatorsCommandLine() async throws {
        try await TestPostgresServer.with { database in
            let (one, data) = try await Self.instance(database, "people")
            defer {
                one.stopInBackground()
                try? FileManager.default.removeItem(at: data)
            }
            let ada = HTTPClient()
            try await ada.signUp(at: one.baseURL, username: "ada", name: "Ada Lovelace")
            let grace = HTTPClient()
            try await grace.signUp(at: one.baseURL, username: "grace", name: "Grace Hopper")
            func people(_ arguments: String...) async throws -> (status: Int32, output: String) {
                try await SanghaProcess.run(
                    ["people"] + arguments + ["--database-url", database.url, "--public-url", "https://sangha.example"])
            }
            #expect(try await people("list").output.contains("ada\tAda Lovelace\tadministrator"))
            let reset = try await people("reset-link", "grace")
            #expect(reset.status == 0)
            #expect(reset.output.contains("https://sangha.example/reset-password?token="))
            #expect(try await people("disable", "ada").status != 0)
            #expect(try await people("make-admin", "grace").output.contains("Grace Hopper is an administrator."))
            #expect(try await people("disable", "ada").status == 0)
            // The instance hears it (at once, or within the 2 s it keeps a session): Ada's session
            // ends, and she cannot sign in.
            var status = try await ada.send("GET", one.baseURL.appendingPathComponent("profiles")).status
            for _ in 0..<50 where status != 303 {
                try await Task.sleep(for: .milliseconds(100))
                status = try await ada.send("GET", one.baseURL.appendingPathComponent("profiles")).status
            }
            #expect(status == 303)
            #expect(try await HTTPClient().signIn(at: one.baseURL, username: "ada").status != 303)
        }
    }
}
