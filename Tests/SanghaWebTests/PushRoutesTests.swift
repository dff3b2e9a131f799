import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaPush
import SanghaStore
import SanghaTestSupport
import SanghaTokens
import SanghaWeb
import Testing

/// Notifications through the routes: the key, a device's subscription posted as Settings'
/// script posts it (201 with no flash; 400 with why for each thing refused), Settings'
/// section, "Remove", the choices, and a sign-out ending the device's notifications. On the
/// app's own SQLite stores in memory: devices and choices are the push store's, in the database
/// the people are in.
@Suite("Push routes")
struct PushRoutesTests {
    static let vapid = VAPID(privateKey: .init(), contact: "mailto:ops@sangha.org")
    static let key = Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
    static let auth = Base64URL.encode(Array(repeating: UInt8(5), count: 16))
    static let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"

    static func dependencies(_ data: SQLitePersonalData) throws -> Dependencies {
        var dependencies = try TestDependencies.make(data: data)
        dependencies.push = PushSetup(
            repository: data.push, publicKey: vapid.publicKeyText,
            endpoints: PushEndpoints(allowedOrigins: ["http://127.0.0.1:9000"]))
        return dependencies
    }

    static func fields(endpoint: String, p256dh: String = key, auth: String = auth) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_.~"))
        let encoded = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed)! }
        return "endpoint=\(encoded(endpoint))&p256dh=\(encoded(p256dh))&auth=\(encoded(auth))"
    }

    /// Posts a subscription as the script does (`Accept: application/json`).
    static func subscribe(
        _ client: some TestClientProtocol, _ fields: String, _ test: @escaping (TestResponse) async throws -> Void
    ) async throws {
        var headers = FormPost.headers()
        headers[.accept] = "application/json"
        headers[.userAgent] = firefox
        try await client.execute(
            uri: "/push/subscriptions", method: .post, headers: headers, body: FormPost.body(fields), testCallback: test
        )
    }

    @Test("GET /push/key: the 65-byte uncompressed point, base64url, as text/plain, for anyone; 404 without push")
    func key() async throws {
        try await withApp(dependencies: Self.dependencies(SQLitePersonalData.inMemory())) { client in
            try await client.execute(uri: "/push/key", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
                let text = String(buffer: response.body)
                #expect(text == Self.vapid.publicKeyText)
                let bytes = try #require(Base64URL.decode(text))
                // Its canonical base64url: no padding.
                #expect(bytes.count == 65 && bytes[0] == 4 && Base64URL.encode(bytes) == text)
            }
        }
        try await withApp { client in
            try await client.execute(uri: "/push/key", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test("A subscription posted by the script is kept (201, no flash), named by its browser, under its session")
    func subscribed() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(dependencies: Self.dependencies(data)) { client in
            let endpoint = "https://updates.push.services.mozilla.com/wpush/v2/gAAAA"
            try await Self.subscribe(client, Self.fields(endpoint: endpoint)) { response in
                #expect(response.status == .created)
                #expect(String(buffer: response.body) == #"{"message":"Notifications are on for this device."}"#)
                #expect(!response.headers[values: .setCookie].contains { $0.hasPrefix("sangha_flash=") })
            }
            let devices = try await data.push.devices(of: 1)
            #expect(devices.count == 1)
            #expect(devices[0].endpoint == endpoint && devices[0].name == "Firefox on Linux" && devices[0].person == 1)
            #expect(devices[0].p256dh == Base64URL.decode(Self.key) && devices[0].auth.count == 16)
            #expect(devices[0].session != nil)
            // An allowed origin (a test's push service on loopback).
            try await Self.subscribe(client, Self.fields(endpoint: "http://127.0.0.1:9000/push/1")) {
                #expect($0.status == .created)
            }
            #expect(try await data.push.devices(of: 1).count == 2)
        }
    }

    @Test(
        "Anything else is 400 with the reason, and nothing is kept",
        arguments: [
            (fields(endpoint: "http://fcm.googleapis.com/fcm/send/x"), "The endpoint must use https."),
            (
                fields(endpoint: "https://evil.example/collect"),
                "The endpoint is not at a push service Sangha sends to."
            ),
            (fields(endpoint: "http://127.0.0.1:8080/admin"), "The endpoint is not at a push service Sangha sends to."),
            (
                fields(endpoint: "http://169.254.169.254/latest"),
                "The endpoint is not at a push service Sangha sends to."
            ),
            (fields(endpoint: ""), "The subscription has no endpoint."),
            (
                fields(endpoint: "https://fcm.googleapis.com/fcm/send/x", p256dh: "BAAA"),
                "p256dh must be the browser’s P-256 public key, base64url."
            ),
            (
                fields(endpoint: "https://fcm.googleapis.com/fcm/send/x", auth: "AAAA"),
                "auth must be 16 bytes, base64url."
            ),
        ])
    func refused(_ fields: String, _ reason: String) async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(dependencies: Self.dependencies(data)) { client in
            try await Self.subscribe(client, fields) { response in
                #expect(response.status == .badRequest)
                let answer = try JSONDecoder().decode([String: String].self, from: Data(buffer: response.body))
                #expect(answer == ["message": reason])
            }
            #expect(try await data.push.devices(of: 1).isEmpty)
        }
    }

    @Test("Without a sign-in, 401; without push set up, 404 and no section in Settings")
    func guarded() async throws {
        try await withApp(dependencies: Self.dependencies(SQLitePersonalData.inMemory())) { client in
            try await Self.subscribe(client, Self.fields(endpoint: "https://fcm.googleapis.com/fcm/send/x")) {
                #expect($0.status == .unauthorized)
            }
        }
        try await withSignedInApp { client in
            try await Self.subscribe(client, Self.fields(endpoint: "https://fcm.googleapis.com/fcm/send/x")) {
                #expect($0.status == .notFound)
            }
            // No Notifications section.
            try await client.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-no-push") }
        }
    }

    @Test("Settings lists the devices with Remove and the three choices; Remove and the choices are saved")
    func settings() async throws {
        let data = try SQLitePersonalData.inMemory()
        // A clock that stands still: Settings shows the day each device was added.
        var dependencies = try Self.dependencies(data)
        dependencies.now = { GroupsRoutesTests.tuesday }
        try await withSignedInApp(dependencies: dependencies) { client in
            try await Self.subscribe(client, Self.fields(endpoint: "https://fcm.googleapis.com/fcm/send/a")) {
                #expect($0.status == .created)
            }
            let id = try #require(try await data.push.devices(of: 1).first?.id)
            let grace = try await data.people.create(
                Person(username: "grace", name: "Grace Hopper", createdAt: Date()), passwordHash: "-")
            let other = try await data.push.add(
                PushDevice(
                    person: grace.id, endpoint: "https://fcm.googleapis.com/fcm/send/other", p256dh: [], auth: [],
                    name: "Chrome on Android", createdAt: Date()), limit: 10)
            // Notifications: "Turn on notifications on this device", Firefox on Linux with Remove (not
            // Grace's Chrome on Android), the three choices (a group sit about to start checked, the
            // daily reminder and someone starting to sit not), and the Home Screen hint for iOS.
            try await client.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings") }
            try await client.post("/settings/notifications", form: "reminder=on&sitting=on") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/settings#notifications")
            }
            #expect(try await data.push.choices(of: 1) == PushChoices(sits: false, reminder: true, sitting: true))
            try await client.post("/push/subscriptions/\(other.id)/delete", form: "") {
                #expect($0.status == .notFound)
            }
            try await client.post("/push/subscriptions/\(id)/delete", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/settings#notifications")
            }
            #expect(try await data.push.devices(of: 1).isEmpty)
            #expect(try await data.push.devices(of: grace.id).map(\.id) == [other.id])
        }
    }

    @Test("Signing out ends the device's notifications: those added under the session, and the one the script names")
    func signOut() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(dependencies: Self.dependencies(data)) { client in
            try await Self.subscribe(client, Self.fields(endpoint: "https://fcm.googleapis.com/fcm/send/here")) {
                #expect($0.status == .created)
            }
            for (endpoint, name, session) in [
                ("before", "Firefox on Linux", "an-earlier-session"), ("phone", "Firefox on Android", "the-phone's"),
            ] {
                _ = try await data.push.add(
                    PushDevice(
                        person: 1, endpoint: "https://fcm.googleapis.com/fcm/send/\(endpoint)", p256dh: [], auth: [],
                        name: name, createdAt: Date(), session: session), limit: 10)
            }
            try await client.post(
                "/sign-out", form: "pushEndpoint=https%3A%2F%2Ffcm.googleapis.com%2Ffcm%2Fsend%2Fbefore"
            ) { #expect($0.status == .seeOther) }
            #expect(try await data.push.devices(of: 1).map(\.endpoint) == ["https://fcm.googleapis.com/fcm/send/phone"])
        }
    }
}
