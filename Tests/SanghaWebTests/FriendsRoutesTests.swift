import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaTestSupport
import SanghaViewModels
import SanghaWeb
import Testing

@Suite("Friends routes")
struct FriendsRoutesTests {
    @Test("GET /friends renders the rows as HTML")
    func list() async throws {
        let service = FakeFriendService.listing([.jane, .kenji])
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            // Jane Doe and Kenji Satō, each with Edit and Remove.
            try await client.execute(uri: "/friends", method: .get) { assertResponse($0, named: "jane-and-kenji") }
        }
    }

    @Test("GET /friends?page=N: 50 a page, links that keep the search; a bad page is 400, past the last 404")
    func paging() async throws {
        let friends = (1...60).map {
            Friend(id: $0, firstname: "Friend", lastname: "Number \($0)", phonenumber: "+1555\($0)")
        }
        let service = FakeFriendService.listing(friends)
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            // "Friends, page 2": Number 51 to 60, Previous keeping the search, "Page 2 of 2".
            try await client.execute(uri: "/friends?q=number&page=2", method: .get) {
                assertResponse($0, named: "page-2")
            }
            for (query, status) in [
                ("page=x", HTTPResponse.Status.badRequest), ("page=0", .badRequest), ("page=3", .notFound),
                ("q=zzz&page=2", .notFound), ("page=9223372036854775807", .notFound),
            ] {
                try await client.execute(uri: "/friends?\(query)", method: .get) { response in
                    #expect(response.status == status, "\(query)")
                }
            }
        }
    }

    @Test("GET /friends?q= filters, and Accept: application/json answers the view model")
    func searchAsJSON() async throws {
        let service = FakeFriendService.listing([.jane, .kenji])
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            try await client.execute(uri: "/friends?q=KEN", method: .get, headers: [.accept: "application/json"]) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                let rows = json?["rows"] as? [[String: Any]]
                #expect(rows?.compactMap { $0["fullName"] as? String } == ["Kenji Satō"])
                #expect(json?["query"] as? String == "KEN")
            }
        }
    }

    @Test("A failing FriendService still renders the page, with the error row")
    func listFailure() async throws {
        let service = FakeFriendService.failing(.transport("down"))
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            // 200, with "Loading failed, check network connection" in the list's place.
            try await client.execute(uri: "/friends", method: .get) { assertResponse($0, named: "service-down") }
        }
    }

    @Test("Adding redirects with 303, and the next page shows the flash once")
    func addRedirectsWithFlash() async throws {
        let service = FakeFriendService(
            list: { [.jane] },
            add: { draft in
                Friend(id: 1, firstname: draft.firstname, lastname: draft.lastname, phonenumber: draft.phonenumber)
            }
        )
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            let cookie = try await client.post(
                "/friends", form: "firstname=Jane&lastname=Doe&phonenumber=%2B1+555+0100"
            ) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/friends")
                return try #require(response.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            }
            // "Added Jane Doe.", shown once: the response clears the cookie (Max-Age=0).
            try await client.execute(uri: "/friends", method: .get, headers: [.cookie: cookie]) {
                assertResponse($0, named: "flash")
            }
            // The same list, without the flash.
            try await client.execute(uri: "/friends", method: .get) { assertResponse($0, named: "after-flash") }
        }
    }

    @Test("Invalid input: 422, messages by their fields, values kept, nothing sent")
    func invalid() async throws {
        let service = FakeFriendService()
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            // "J4ne" kept; "Last name is required.", "Phone number must be 3 to 20 digits…".
            try await client.post("/friends", form: "firstname=J4ne&phonenumber=12") {
                assertResponse($0, named: "invalid")
            }
        }
        #expect(service.recordedCalls.isEmpty)
    }

    @Test("A failed add answers 502 with the alert and the values kept")
    func addFailed() async throws {
        let service = FakeFriendService.failing(.unauthorized)
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            // "Could not add Jane Doe.", "Please login to add friends.", the values kept.
            try await client.post("/friends", form: "firstname=Jane&lastname=Doe&phonenumber=123") {
                assertResponse($0, named: "unauthorized")
            }
        }
    }

    @Test("Edit: the form for a known id, 404 for an unknown or non-numeric one")
    func edit() async throws {
        let service = FakeFriendService.listing([.jane])
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            try await client.execute(uri: "/friends/1/edit", method: .get) { assertResponse($0, named: "jane") }
            try await client.execute(uri: "/friends/2/edit", method: .get) { assertResponse($0, named: "unknown-id") }
            try await client.execute(uri: "/friends/abc/edit", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("Updating redirects with 303; a non-numeric id is 404 and sends nothing")
    func update() async throws {
        let service = FakeFriendService(update: { id, draft in
            Friend(id: id, firstname: draft.firstname, lastname: draft.lastname, phonenumber: draft.phonenumber)
        })
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            try await client.post("/friends/1", form: "firstname=Janet&lastname=Doe&phonenumber=123") { response in
                #expect(response.status == .seeOther)
            }
            try await client.post("/friends/x", form: "firstname=Janet&lastname=Doe&phonenumber=123") { response in
                #expect(response.status == .notFound)
            }
        }
        #expect(service.recordedCalls == ["updateFriend"])
    }

    @Test("Deleting redirects with 303 and a flash naming the friend")
    func delete() async throws {
        let service = FakeFriendService(delete: { _ in })
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            // 303 to /friends, and the flash "Removed Jane Doe." in an HttpOnly cookie.
            try await client.post("/friends/1/delete", form: "fullName=Jane+Doe") {
                assertResponse($0, named: "removed")
            }
        }
    }

    @Test("Unknown pages are 404 pages in the layout, or JSON when asked")
    func unknownPage() async throws {
        let service = FakeFriendService()
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            // "There is no page at this address.", under the navigation.
            try await client.execute(uri: "/nowhere", method: .get) { assertResponse($0, named: "html") }
            try await client.execute(uri: "/nowhere", method: .get, headers: [.accept: "application/json"]) {
                response in
                #expect(response.status == .notFound)
                let page = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(page?["heading"] as? String == "Page not found")
            }
        }
    }

    @Test("A flash meant for the next page is shown even when that page is an error page")
    func flashOnErrorPage() async throws {
        let service = FakeFriendService(
            list: { [] },
            delete: { _ throws(FriendServiceError) in throw FriendServiceError(.notFound) }
        )
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            let cookie = try await client.post("/friends/1/delete", form: "fullName=Jane+Doe") { response in
                try #require(response.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            }
            // 404, and "Could not remove Jane Doe." above "Page not found".
            try await client.execute(uri: "/friends/9/edit", method: .get, headers: [.cookie: cookie]) {
                assertResponse($0, named: "not-found-with-flash")
            }
        }
    }

    @Test("Bad form bodies: 413 when too large, 400 when not UTF-8; never 5xx")
    func badBodies() async throws {
        let service = FakeFriendService()
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            let huge = "firstname=" + String(repeating: "a", count: 70 * 1024)
            try await client.post("/friends", form: huge) { response in
                #expect(response.status == .contentTooLarge)
            }
            try await client.execute(
                uri: "/friends",
                method: .post,
                headers: FormPost.headers(),
                body: ByteBuffer(
                    bytes: [0x66, 0x3D, 0xFF, 0xFE]
                        + Array("&_csrf=\(FormPost.formToken(cookies: [client.sessionCookie]))".utf8))
            ) { response in
                // 400: "The form was not valid UTF-8 text."
                assertResponse(response, named: "form-bytes")
            }
            // Percent-encoded bytes that are not UTF-8: the form's and the address's.
            try await client.post("/friends", form: "firstname=%FF%FE&lastname=Doe&phonenumber=1") { response in
                assertResponse(response, named: "form-bytes")
            }
            for query in ["q=%FF", "q=%C3%28", "q=%E2%82"] {
                // 400: "The address is not valid UTF-8 text."
                try await client.execute(uri: "/friends?\(query)", method: .get) { response in
                    assertResponse(response, named: "address-bytes")
                }
            }
            #expect(service.recordedCalls.isEmpty, "nothing reached the FriendService")
        }
    }

    @Test("/health answers 200 and the stylesheet is served")
    func healthAndStatic() async throws {
        let service = FakeFriendService()
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/css/sangha.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/css") == true)
            }
        }
    }

    @Test("Every catalogue sound is built in and served as audio/mpeg; its digest name is cached for a year")
    func sounds() async throws {
        let service = FakeFriendService.listing([])
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            for name in SoundCatalogue.names {
                let path = SoundCatalogue.path(of: name)
                let digestPath = try #require(StaticFiles.embedded.digestPaths[path], "\(path) is not in Public/")
                try await client.execute(uri: digestPath, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "audio/mpeg")
                    #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                    #expect(response.headers[.setCookie] == nil)
                    // An MP3 frame or an ID3 tag, and a few seconds of it at most.
                    let bytes = Array(buffer: response.body)
                    #expect(bytes.starts(with: [0x49, 0x44, 0x33]) || bytes.starts(with: [0xFF]))
                    #expect((1_000..<100_000).contains(bytes.count))
                }
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "audio/mpeg")
                }
            }
        }
    }

    @Test("Static files: built in, linked by a digest name cached for a year, no cookie; the plain name revalidates")
    func staticFiles() async throws {
        let service = FakeFriendService.listing([])
        try await withSignedInApp(dependencies: TestDependencies.make(friends: service)) { client in
            let page = try await client.execute(uri: "/friends", method: .get) { String(buffer: $0.body) }
            let stylesheet = try #require(page.firstMatch(of: /href="(\/css\/sangha\.[0-9a-f]{16}\.css)"/)?.1)
            let script = try #require(page.firstMatch(of: /src="(\/js\/sangha\.[0-9a-f]{16}\.js)"/)?.1)
            let etag = try await client.execute(uri: String(stylesheet), method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(response.headers[.setCookie] == nil)
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
                // The stylesheet's bytes as they are in Public/.
                let source = try Data(contentsOf: RepositoryPaths.root.appendingPathComponent("Public/css/sangha.css"))
                #expect(Array(buffer: response.body) == Array(source))
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: String(script), method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/css/sangha.css", method: .get, headers: [.ifNoneMatch: etag]) {
                response in
                #expect(response.status == .notModified)
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(response.headers[.setCookie] == nil)
            }
            try await client.execute(uri: "/css/sangha.css", method: .get, headers: [.ifNoneMatch: "W/\(etag)"]) {
                #expect($0.status == .notModified, "a weak tag, as a compressing proxy passes it on")
            }
            try await client.execute(uri: "/css/sangha.0000000000000000.css", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}
