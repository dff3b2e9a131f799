import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaFixtures
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import SanghaWeb
import Testing

@Suite("Profiles, home and gallery routes")
struct ProfilesRoutesTests {
    /// Static files (and, in development, templates) from the checkout rather than those built
    /// in, as `sangha-gallery` and `--dev` read them.
    static func configuration(development: Bool = false) -> AppConfiguration {
        AppConfiguration(resourcesDirectory: RepositoryPaths.root, development: development)
    }

    /// The clock of the tests that record sessions: 2026-11-18 11:06:40 UTC, so that their
    /// sessions of that morning are within the last 48 hours whenever the tests run.
    static let clock = Date(timeIntervalSince1970: 1_795_000_000)

    static func stored() -> Profile {
        var profile = Profile.new(named: "Morning")
        profile.id = 1
        profile.version = 1
        return profile
    }

    @Test("GET /profiles lists the profiles; POST /profiles creates one and opens its editor")
    func listAndCreate() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(
            configuration: Self.configuration(), dependencies: TestDependencies.make(data: data, now: { Self.clock })
        ) {
            client in
            try await data.store(profiles: [Self.stored()], of: 1)
            // Morning, 07:30.
            try await client.execute(uri: "/profiles", method: .get) { assertResponse($0, named: "profiles") }
            try await client.post("/profiles", form: "name=Evening") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/profiles/2")
            }
            try await client.post("/profiles", form: "name=") { assertResponse($0, named: "create-no-name") }
        }
    }

    @Test("The editor: 200 for a profile, 404 for an unknown or non-numeric id, JSON on request")
    func editor() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(
            configuration: Self.configuration(), dependencies: TestDependencies.make(data: data, now: { Self.clock })
        ) {
            client in
            try await data.store(profiles: [Self.stored()], of: 1)
            try await client.execute(uri: "/profiles/1", method: .get) { response in
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                let time = try #require(html.range(of: "<h2 id=\"section-main\">Time</h2>"))
                let warmUp = try #require(html.range(of: "<h2 id=\"section-warmUp\">Warm Up</h2>"))
                let coolDown = try #require(html.range(of: "<h2 id=\"section-coolDown\">Cool Down</h2>"))
                #expect(time.lowerBound < warmUp.lowerBound && warmUp.lowerBound < coolDown.lowerBound)
            }
            try await client.execute(uri: "/profiles/1", method: .get, headers: [.accept: "application/json"]) {
                response in
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(json?["totalText"] as? String == "07:30")
                #expect((json?["sections"] as? [[String: Any]])?.count == 3)
            }
            for uri in ["/profiles/9", "/profiles/nine"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound)
                }
            }
        }
    }

    @Test("The sitting page lists the timeline, its sounds linked by digest names that play; 404 for an unknown id")
    func sit() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(
            configuration: Self.configuration(), dependencies: TestDependencies.make(data: data, now: { Self.clock })
        ) {
            client in
            try await data.store(profiles: [Self.stored()], of: 1)
            // The timeline, to "07:30 — The session ends".
            let html = try await client.execute(uri: "/profiles/1/sit", method: .get) { response in
                assertResponse(response, named: "sitting")
                return String(buffer: response.body)
            }
            let sound = try #require(html.firstMatch(of: /data-sound="(\/sounds\/bell\.[0-9a-f]{16}\.mp3)"/)?.1)
            try await client.execute(uri: String(sound), method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "audio/mpeg")
            }
            try await client.execute(uri: "/profiles/1/sit", method: .get, headers: [.accept: "application/json"]) {
                response in
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(json?["totalSeconds"] as? Int == 450)
                #expect((json?["events"] as? [[String: Any]])?.count == 4)
            }
            for uri in ["/profiles/9/sit", "/profiles/nine/sit"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound)
                }
            }
        }
    }

    @Test(
        "POST /sessions records a session: 303 back with \"Session saved.\"; a short stop is 422 and stores nothing; a gone profile's is kept by name"
    )
    func recordSession() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(
            configuration: Self.configuration(),
            dependencies: TestDependencies.make(data: data, now: { Self.clock })
        ) { client in
            try await data.store(profiles: [Self.stored()], of: 1)
            let start = "2026-11-18T06:00:00Z"
            try await client.post(
                "/sessions", form: "profile=1&startedAt=\(start)&seconds=450&completed=true"
            ) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/profiles/1/sit")
            }
            try await client.post(
                "/sessions", form: "profile=1&startedAt=\(start)&seconds=59&completed=false"
            ) { assertResponse($0, named: "short-stop") }
            try await client.post(
                "/sessions", form: "profile=1&startedAt=yesterday&seconds=60&completed=false"
            ) { response in
                #expect(response.status == .unprocessableContent)
            }
            try await client.post(
                "/sessions", form: "profile=1&startedAt=2999-01-01T06:00:00Z&seconds=60&completed=true"
            ) { assertResponse($0, named: "future") }
            // A profile that is not there (deleted while the sit was kept on the device): the
            // sit is kept under the name the page posted, and leads to the history.
            try await client.post(
                "/sessions", form: "profile=9&profileName=Evening&startedAt=\(start)&seconds=60&completed=false"
            ) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/history")
            }
            try await client.post(
                "/sessions", form: "profile=nine&startedAt=\(start)&seconds=60&completed=false"
            ) { response in
                #expect(response.status == .notFound)
            }
        }
        let stored = try await data.sessions(of: 1).all().sorted { $0.profileName > $1.profileName }
        #expect(stored.map(\.profileName) == ["Morning", "Evening"])
        #expect(stored.map(\.profileID) == [1, nil])
        #expect(stored.first?.profileName == "Morning")
        #expect(stored.first?.seconds == 450)
        #expect(stored.first?.completed == true)
        #expect(stored.first?.startedAt == Date(timeIntervalSince1970: 1_794_981_600))
    }

    @Test("POST /sessions: a start more than 30 days ago, or in the future, is 422 with why and stores nothing")
    func recordSessionWindow() async throws {
        let data = try SQLitePersonalData.inMemory()
        // The clock is 2026-11-18 11:06:40: 30 days and a minute before it is 2026-10-19 11:05:40.
        try await withSignedInApp(
            configuration: Self.configuration(),
            dependencies: TestDependencies.make(data: data, now: { Self.clock })
        ) { client in
            try await data.store(profiles: [Self.stored()], of: 1)
            // "Not saved." and why, on the sitting page: the same page for each.
            for start in ["2026-10-19T11:05:39Z", "2026-01-26T06:00:00Z", "2000-01-01T00:00:00Z"] {
                try await client.post(
                    "/sessions", form: "profile=1&startedAt=\(start)&seconds=60&completed=true"
                ) { assertResponse($0, named: "too-old") }
            }
            try await client.post(
                "/sessions", form: "profile=1&startedAt=2026-11-18T11:16:41Z&seconds=60&completed=true"
            ) { assertResponse($0, named: "future") }
            // The oldest start and the latest one still recorded, and a whole 72-hour session
            // recorded as it ends.
            for (start, seconds) in [
                ("2026-10-19T11:05:40Z", 60), ("2026-11-18T11:16:40Z", 60), ("2026-10-16T11:06:40Z", 259_200),
            ] {
                try await client.post(
                    "/sessions", form: "profile=1&startedAt=\(start)&seconds=\(seconds)&completed=true"
                ) { response in
                    #expect(response.status == .seeOther, "\(start)")
                }
            }
        }
        // Oldest first: the 72-hour session began first.
        let stored = try await data.sessions(of: 1).all()
        #expect(stored.map(\.seconds) == [259_200, 60, 60])
    }

    @Test(
        "POST /sessions with a clientId: posted again (a lost answer, another tab), it answers as before and records once"
    )
    func recordOnce() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(
            configuration: Self.configuration(), dependencies: TestDependencies.make(data: data, now: { Self.clock })
        ) { client in
            try await data.store(profiles: [Self.stored()], of: 1)
            let form = "profile=1&startedAt=2026-11-18T10:00:00Z&seconds=600&completed=true"
            for _ in 0..<3 {
                try await client.post("/sessions", form: form + "&clientId=5f0c2b1e-8d4a-4c3b-9e2f-1a2b3c4d5e6f") {
                    #expect($0.status == .seeOther)
                    #expect($0.headers[.location] == "/profiles/1/sit")
                }
            }
            // An id that is not one (too long, or with other characters) is not read: 422.
            for clientId in [String(repeating: "a", count: 65), "a%20b", "a/b"] {
                try await client.post("/sessions", form: form + "&clientId=\(clientId)") {
                    #expect($0.status == .unprocessableContent, "\(clientId)")
                }
            }
        }
        #expect(try await data.sessions(of: 1).all().count == 1)
    }

    @Test("The sitting page of a day ringing every second is a few rows, and small")
    func sitDayLong() async throws {
        var profile = Self.stored()
        profile.duration = 86_400
        profile[.main][sound: .repeat] = Sound(type: .repeat, enabled: true, iterations: 3, interval: 1)
        let dayLong = profile
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(
            configuration: Self.configuration(), dependencies: TestDependencies.make(data: data, now: { Self.clock })
        ) {
            client in
            try await data.store(profiles: [dayLong], of: 1)
            // Five rows, one of them "Bell rings 3 times every 00:01 from 00:01 to 24:00:00".
            let html = try await client.execute(uri: "/profiles/1/sit", method: .get) { response in
                assertResponse(response, named: "sitting")
                return String(buffer: response.body)
            }
            #expect(html.utf8.count < 50_000)
            #expect(html.components(separatedBy: "<li data-time=").count - 1 == 5)
        }
    }

    @Test("GET /profiles?page=N: 50 a page by name; a bad page is 400, past the last 404")
    func profilesPaging() async throws {
        let profiles = (1...60).map { number in
            var profile = Profile.new(named: String(format: "Profile %02d", number))
            profile.id = number
            return profile
        }
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(
            configuration: Self.configuration(), dependencies: TestDependencies.make(data: data, now: { Self.clock })
        ) {
            client in
            try await data.store(profiles: profiles, of: 1)
            // Profile 51 to 60, and Previous.
            try await client.execute(uri: "/profiles?page=2", method: .get) { assertResponse($0, named: "page-2") }
            for (query, status) in [
                ("page=x", HTTPResponse.Status.badRequest), ("page=3", .notFound),
                ("page=9223372036854775807", .notFound),
            ] {
                try await client.execute(uri: "/profiles?\(query)", method: .get) { response in
                    #expect(response.status == status, "\(query)")
                }
            }
        }
    }

    @Test("GET /history: a recorded session shows; a broken disk is 503 with why; a huge page is 400 or 404")
    func history() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(
            configuration: Self.configuration(),
            dependencies: TestDependencies.make(data: data, now: { Self.clock })
        ) { client in
            try await data.store(profiles: [Self.stored()], of: 1)
            try await client.post(
                "/sessions", form: "profile=1&startedAt=2026-11-18T06:00:00Z&seconds=450&completed=true"
            ) { response in
                #expect(response.status == .seeOther)
            }
            // Morning, 07:30.
            try await client.execute(uri: "/history", method: .get) { assertResponse($0, named: "history") }
            for (query, status) in [
                ("page=x", HTTPResponse.Status.badRequest), ("page=-1", .badRequest),
                ("page=99999999999999999999", .badRequest), ("page=9223372036854775807", .notFound),
            ] {
                try await client.execute(uri: "/history?\(query)", method: .get) { response in
                    #expect(response.status == status, "\(query)")
                }
            }
        }
        let brokenDisk = BreakableData(try SQLitePersonalData.inMemory())
        brokenDisk.faults.sessions.fail(.storage)
        try await withSignedInApp(
            configuration: Self.configuration(),
            dependencies: TestDependencies.make(data: brokenDisk, now: { Self.clock })
        ) { client in
            // 503 with why; Home is whole but its practice panel, which says why.
            try await client.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-broken-disk") }
            try await client.execute(uri: "/", method: .get) { assertResponse($0, named: "home-broken-disk") }
        }
    }

    @Test("Saving: 303 back with a flash; invalid: 422; stale version: 409 with the values kept")
    func save() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(
            configuration: Self.configuration(), dependencies: TestDependencies.make(data: data, now: { Self.clock })
        ) {
            client in
            try await data.store(profiles: [Self.stored()], of: 1)
            let cookie = try await client.post(
                "/profiles/1", form: "version=1&name=Morning&main.duration=20&warmUp.enabled=on"
            ) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/profiles/1")
                return try #require(response.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            }
            // "Profile saved.", 20:00, Warm Up on.
            try await client.execute(uri: "/profiles/1", method: .get, headers: [.cookie: cookie]) {
                assertResponse($0, named: "saved")
            }
            // "later" kept, "Enter a duration like 07:30".
            try await client.post("/profiles/1", form: "version=2&name=Morning&main.duration=later") {
                assertResponse($0, named: "invalid")
            }
            // "changed elsewhere", "Stale" kept.
            try await client.post("/profiles/1", form: "version=1&name=Stale&main.duration=05:00") {
                assertResponse($0, named: "conflict")
            }
        }
        #expect(try await data.profiles(of: 1).get(id: 1)?.duration == 1200)
    }

    @Test("Deleting a profile redirects to the list")
    func delete() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(
            configuration: Self.configuration(), dependencies: TestDependencies.make(data: data, now: { Self.clock })
        ) {
            client in
            try await data.store(profiles: [Self.stored()], of: 1)
            try await client.post("/profiles/1/delete", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/profiles")
            }
        }
        #expect(try await data.profiles(of: 1).get(id: 1) == nil)
    }

    @Test("The home page renders both panels; a failing FriendService leaves the rest of the page")
    func home() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(
            configuration: Self.configuration(),
            dependencies: TestDependencies.make(
                data: data, friends: FakeFriendService.failing(.server(status: 500)), now: { Self.clock })
        ) { client in
            try await data.store(profiles: [Self.stored()], of: 1)
            // Profiles with Morning; the friends panel says "Loading failed, check network connection".
            try await client.execute(uri: "/", method: .get) { assertResponse($0, named: "home") }
        }
    }

    @Test("The app serves no gallery, even with --dev; sangha-gallery's routes render every fixture")
    func gallery() async throws {
        for development in [false, true] {
            try await withSignedInApp(configuration: Self.configuration(development: development)) { client in
                try await client.execute(uri: "/_gallery", method: .get) { response in
                    #expect(response.status == .notFound)
                }
            }
        }
        // As sangha-gallery builds it: the app's router, in development mode, and the gallery.
        let templates = RepositoryPaths.root.appendingPathComponent("Templates")
        let renderer = PageRenderer(
            mustache: try await MustacheTemplates(directory: templates, reload: true), signer: TestDependencies.signer)
        let router = try buildRouter(
            configuration: AppConfiguration(resourcesDirectory: RepositoryPaths.root, development: true),
            dependencies: try TestDependencies.make(), renderer: renderer)
        try await GalleryRoutes(fixtures: FixtureRegistry.all, renderer: renderer, templates: templates)
            .addRoutes(to: router)
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/_gallery", method: .get) { response in
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                #expect(html.firstMatch(of: /<title>([^<]*)<\/title>/)?.1 == "Gallery · Sangha")
                // A link to every fixture, in the registry's order.
                let links = html.matches(of: /href="\/_gallery\/([^"]+)"/).map { String($0.1) }
                #expect(links == FixtureRegistry.all.map(\.name))
            }
            // The fixture's page exactly as its snapshot (FixtureSnapshotTests) shows it.
            let reviewed = try String(
                contentsOf: RepositoryPaths.root.appendingPathComponent(
                    "Tests/SanghaWebTests/__Snapshots__/FixtureSnapshotTests/fixture.profile-editor-warm-up-on.html"),
                encoding: .utf8)
            try await client.execute(uri: "/_gallery/profile-editor-warm-up-on", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == reviewed)
            }
            // The pages link the plain names, served from Public/ on disk.
            for path in ["/css/sangha.css", "/js/sangha.js", "/favicon.svg"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                }
            }
            try await client.execute(uri: "/_gallery/nothing", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}
