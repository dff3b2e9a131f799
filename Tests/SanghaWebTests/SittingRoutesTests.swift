import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// `POST /sessions` as the sitting page's script posts it (`Accept: application/json`, as every
/// script's post) and as a form would: where the flash goes, and that no sit is lost.
@Suite("Recording a sit: the script's post and the form's")
struct SittingRoutesTests {
    static let clock = ProfilesRoutesTests.clock
    static let start = "2026-11-18T06:00:00Z"
    static let sit = "profile=1&profileName=Morning&startedAt=\(start)&seconds=450&completed=true"

    static func dependencies(_ data: any OneDatabase) throws -> Dependencies {
        try TestDependencies.make(data: data, now: { Self.clock })
    }

    /// Ada's profile 1, Morning, once she signed up.
    static func morning(in data: any OneDatabase) async throws {
        try await data.store(profiles: [ProfilesRoutesTests.stored()], of: 1)
    }

    static func flashCookies(_ response: TestResponse) -> [String] {
        response.headers[values: .setCookie].filter { $0.hasPrefix("sangha_flash=") }
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test("A form's post gets its 303 and its flash; the script's the outcome as JSON, and no flash")
    func flashWhereItBelongs() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(dependencies: Self.dependencies(data)) { client in
            try await Self.morning(in: data)
            let flash = try await client.post("/sessions", form: Self.sit + "&clientId=form") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/profiles/1/sit")
                let cookies = Self.flashCookies(response)
                #expect(cookies.count == 1 && !cookies[0].hasPrefix("sangha_flash=;"))
                return String(try #require(cookies.first).prefix { $0 != ";" })
            }
            try await client.scriptPost("/sessions", form: Self.sit + "&clientId=script") { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(Self.flashCookies(response).isEmpty)
                let answer = try Self.json(response)
                #expect(answer["location"] as? String == "/profiles/1/sit")
                #expect((answer["flash"] as? [String: Any])?["message"] as? String == "Session saved.")
            }
            // A flash waiting for the next page (the form's) is neither shown nor cleared by a
            // script's post; the next page shows it, once.
            try await client.scriptPost("/sessions", form: Self.sit + "&clientId=again", cookies: [flash]) { response in
                #expect(response.status == .ok)
                #expect(Self.flashCookies(response).isEmpty)
            }
            try await client.execute(
                uri: "/history", method: .get, headers: [.cookie: "sangha_csrf=\(FormPost.token); \(flash)"]
            ) { response in
                // "Session saved." above the three sits, and the flash cookie cleared (Max-Age=0).
                assertResponse(response, named: "history-flash")
            }
            // What breaks a rule: the form again as JSON (422), no flash either way.
            try await client.scriptPost(
                "/sessions", form: "profile=1&startedAt=\(Self.start)&seconds=30&completed=false"
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(Self.flashCookies(response).isEmpty)
                let page = try Self.json(response)
                #expect(
                    (page["alert"] as? [String: Any])?["message"] as? String
                        == "A session stopped before a minute is not recorded.")
            }
        }
        #expect(try await data.sessions(of: 1).all().count == 3)
    }

    @Test("A profile that cannot be read is 503 (the script keeps the sit), never 404")
    func profileUnreadable() async throws {
        let data = BreakableData(try SQLitePersonalData.inMemory())
        try await withSignedInApp(dependencies: Self.dependencies(data)) { client in
            try await Self.morning(in: data)
            data.faults.profiles.fail(.storage)
            try await client.scriptPost("/sessions", form: Self.sit) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(Self.flashCookies(response).isEmpty)
            }
            // 503: "The session was not saved", and why.
            try await client.post("/sessions", form: Self.sit) { assertResponse($0, named: "form") }
        }
        #expect(try await data.sessions(of: 1).all().isEmpty)
    }

    @Test(
        "Another person's profile is gone for this one: the sit is theirs, under the posted name, answered as for no profile"
    )
    func anotherPersonsProfile() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withApp(dependencies: Self.dependencies(data)) { client in
            _ = try await client.signedUp(username: "ada")  // person 1: profile 1 is hers
            try await Self.morning(in: data)
            let bob = try await client.signedUp(username: "bob", name: "Bob")
            func record(_ profile: String, clientId: String) async throws -> (HTTPResponse.Status, String) {
                try await bob.scriptPost(
                    "/sessions",
                    form: "profile=\(profile)&profileName=Bob%27s+evening&startedAt=\(Self.start)&seconds=450"
                        + "&completed=true&clientId=\(clientId)"
                ) { response in (response.status, String(buffer: response.body)) }
            }
            func location(_ answer: String) throws -> String? {
                try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])["location"]
                    as? String
            }
            let hers = try await record("1", clientId: "a")
            let none = try await record("999", clientId: "b")
            #expect(hers.0 == .ok)
            #expect(hers == none)  // nothing tells whether profile 1 exists
            #expect(try location(hers.1) == "/history")
            // Bob's two sits, each "Bob's evening"; nothing of Ada's Morning.
            try await bob.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-bob") }
        }
        #expect(try await data.sessions(of: 1).all().isEmpty)  // never recorded under Ada's profile
        #expect(try await data.sessions(of: 2).all().map(\.profileID) == [nil, nil])
    }

    @Test("A sit whose profile was deleted while it waited on the device is recorded under its name then")
    func profileDeleted() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(dependencies: Self.dependencies(data)) { client in
            try await Self.morning(in: data)
            try await client.post("/profiles/1/delete", form: "") { #expect($0.status == .seeOther) }
            try await client.scriptPost("/sessions", form: Self.sit) { response in
                #expect(response.status == .ok)
                let answer = try Self.json(response)
                #expect(answer["location"] as? String == "/history")
            }
        }
        let stored = try await data.sessions(of: 1).all()
        #expect(stored.map(\.profileName) == ["Morning"])
        #expect(stored.map(\.profileID) == [nil])
    }
}

extension TestClientProtocol {
    /// Posts `fields` to `uri` as a page's script does: the form's fields and token, asking for
    /// JSON (`Accept: application/json`, `Request.isScriptPost`).
    @discardableResult func scriptPost<Return>(
        _ uri: String,
        form fields: String,
        cookies: [String] = [],
        _ test: @escaping (TestResponse) async throws -> Return = { $0 }
    ) async throws -> Return {
        var headers = FormPost.headers(cookies: cookies)
        headers[.accept] = "application/json"
        return try await execute(
            uri: uri, method: .post, headers: headers, body: FormPost.body(fields, cookies: cookies),
            testCallback: test)
    }
}
