import Foundation
import SanghaStore
import SanghaTestSupport
import Testing

/// `sangha serve` driven over HTTP through the profile editor, restarted and killed.
@Suite("Profiles end to end", .serialized)
struct ProfilesEndToEndTests {
    let client = HTTPClient()

    @Test("Create a profile, turn Warm Up on, set durations in each form, save, restart: all there")
    func editAndRestart() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-e2e-profiles")
        defer { try? FileManager.default.removeItem(at: data) }
        var server = try await SanghaProcess.serve(dataDirectory: data)
        try await client.signUp(at: server.baseURL)
        let profiles = server.baseURL.appendingPathComponent("profiles")

        let created = try await client.send("POST", profiles, form: ["name": "Morning sit"])
        #expect(created.status == 303)
        let editorPath = try #require(created.header("Location"))
        #expect(editorPath == "/profiles/1")
        let editor = server.baseURL.appendingPathComponent(editorPath)

        // Turn Warm Up on: its details appear after the save.
        let on = try await client.send(
            "POST",
            editor,
            form: ["version": "1", "name": "Morning sit", "main.duration": "07:30", "warmUp.enabled": "on"]
        )
        #expect(on.status == 303)
        let page = try await client.send("GET", editor)
        #expect(page.body.contains("Warm Up duration"))

        // Durations in each input form: whole minutes, mm:ss, h:mm:ss.
        let saved = try await client.send(
            "POST",
            editor,
            form: [
                "version": "2", "name": "Morning sit", "main.duration": "25", "warmUp.enabled": "on",
                "warmUp.duration": "2:30", "warmUp.begin.enabled": "on", "warmUp.begin.name": "Gong",
                "warmUp.repeat.enabled": "on", "warmUp.repeat.name": "Bowl", "warmUp.repeat.interval": "0:00:45",
                "warmUp.repeat.iterations": "2",
            ]
        )
        #expect(saved.status == 303)
        let afterSave = try await client.send("GET", editor)
        #expect(afterSave.body.contains("Profile saved."))

        #expect(await server.stop() == 0)
        server = try await SanghaProcess.serve(dataDirectory: data)
        // The sign-in session survives the restart: the same browser is still signed in.
        let reloaded = try await client.send(
            "GET",
            server.baseURL.appendingPathComponent(editorPath),
            headers: ["Accept": "application/json"]
        )
        #expect(reloaded.status == 200)
        #expect(reloaded.body.contains("\"totalText\":\"27:30\""))
        #expect(reloaded.body.contains("\"value\":\"25:00\""))
        #expect(reloaded.body.contains("\"value\":\"02:30\""))
        #expect(reloaded.body.contains("\"value\":\"00:45\""))
        let home = try await client.send("GET", server.baseURL)
        #expect(home.body.contains("Morning sit"))
        await server.stop()
    }

    @Test("kill -9 after an acknowledged save: the save is there and the file is sound")
    func killNine() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-e2e-kill")
        defer { try? FileManager.default.removeItem(at: data) }
        var server = try await SanghaProcess.serve(dataDirectory: data)
        try await client.signUp(at: server.baseURL)
        let profiles = server.baseURL.appendingPathComponent("profiles")
        var acknowledged: [String] = []
        for index in 1...20 {
            let response = try await client.send("POST", profiles, form: ["name": "Profile \(index)"])
            if response.status == 303 { acknowledged.append("Profile \(index)") }
        }
        #expect(acknowledged.count == 20)
        await server.kill()

        let database = try SanghaDatabase.open(directory: data)
        #expect(try await integrityCheck(database) == ["ok"])
        let store = ProfileStore(database: database, owner: 1)
        #expect(Set(try await store.list().map(\.name)) == Set(acknowledged))

        server = try await SanghaProcess.serve(dataDirectory: data)
        let list = try await client.send("GET", server.baseURL.appendingPathComponent("profiles"))
        #expect(list.body.contains("Profile 20"))
        await server.stop()
    }
}
