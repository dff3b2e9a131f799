import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaViewModels
import SanghaWeb
import Synchronization
import Testing

/// The import's preview keeps the file on the server, named in the page by a token: "Import"
/// sends the token alone. On SQLite in memory, with a clock the test moves.
@Suite("Import: the previewed file kept on the server")
struct PendingImportRoutesTests {
    static let start = Date(timeIntervalSince1970: 1_795_543_200)  // 2026-11-24 18:00 UTC

    /// A CSV of `count` sits an hour apart, ending before `start`.
    static func file(_ count: Int, name: String = "Zazen") -> String {
        PracticeLogExport.csvHeader
            + (0..<count).map { index in
                let startedAt = start.addingTimeInterval(-Double(count - index) * 3600)
                return "\(startedAt.formatted(.iso8601)),600,\(name),completed,,\r\n"
            }.joined()
    }

    static func body(_ response: TestResponse) -> String { String(buffer: response.body) }

    /// Previews `file` as `person`: the page, and the token its "Import" sends.
    /// The page is compared whole with the snapshot `named`, when given.
    static func preview(
        _ file: String, as person: SignedInClient, named name: String? = nil, testName: String = #function
    ) async throws -> (page: String, token: String) {
        let (type, body) = PracticeLogRoutesTests.multipart([("file", file, "history.csv")])
        return try await person.postMultipart("/history/import", contentType: type, body: body) { response in
            #expect(response.status == .ok)
            if let name { assertResponse(response, named: name, testName: testName) }
            let page = Self.body(response)
            return (page, try PracticeLogRoutesTests.importToken(in: page))
        }
    }

    /// Presses "Import" as `person` with `token`: the response's status.
    static func press(_ token: String?, as person: SignedInClient) async throws -> HTTPResponse.Status {
        let fields = [("action", "import", String?.none)] + (token.map { [("token", $0, String?.none)] } ?? [])
        let (type, body) = PracticeLogRoutesTests.multipart(fields)
        return try await person.postMultipart("/history/import", contentType: type, body: body) { response in
            if response.status == .gone {
                // The page's one alert: its title and its message, each whole.
                #expect(
                    alerts(in: Self.body(response)) == [
                        ["Nothing was imported.", PracticeLogImportViewModel.expiredMessage]
                    ])
            }
            return response.status
        }
    }

    static func sessions(of person: SignedInClient) async throws -> Int {
        let csv = try await person.execute(uri: "/history/export.csv", method: .get) { Self.body($0) }
        return csv.components(separatedBy: "\r\n").count - 2
    }

    @Test(
        "The preview page carries a token, not the file, and stays small; Import with it once; again, or unknown, malformed, missing or another person's: 410 and nothing imported"
    )
    func tokenOnce() async throws {
        var dependencies = try PracticeLogRoutesTests.dependencies()
        dependencies.now = { Self.start }
        try await withApp(dependencies: dependencies) { client in
            let ada = try await client.signedUp()
            let bob = try await client.signedUp(username: "bob", name: "Bob Brown")
            let small = try await Self.preview(Self.file(1), as: ada)
            // "1000 sessions to add, 0 already there, 0 lines with problems", the token (shown as
            // TOKEN), and nothing of the file: no row of it, no field carrying it.
            let large = try await Self.preview(Self.file(1_000), as: ada, named: "large")
            // The page grows by the summary's digits.
            #expect(large.page.utf8.count - small.page.utf8.count < 16)
            #expect(large.token != small.token)

            for token in [String?.none, "abc", String(repeating: "0", count: 64), large.token.uppercased()] {
                #expect(try await Self.press(token, as: ada) == .gone, "\(token ?? "none")")
            }
            #expect(try await Self.press(large.token, as: bob) == .gone, "Ada's file is not Bob's")
            #expect(try await Self.sessions(of: bob) == 0)
            #expect(try await Self.sessions(of: ada) == 0)

            #expect(try await Self.press(large.token, as: ada) == .seeOther)
            #expect(try await Self.sessions(of: ada) == 1_000)
            #expect(try await Self.press(large.token, as: ada) == .gone, "used once")
            #expect(try await Self.sessions(of: ada) == 1_000)
            #expect(try await Self.sessions(of: bob) == 0)
        }
    }

    @Test("A preview waits an hour, and a newer one replaces it")
    func expiry() async throws {
        let clock = Mutex(Self.start)
        var dependencies = try PracticeLogRoutesTests.dependencies()
        dependencies.now = { clock.withLock { $0 } }
        try await withApp(dependencies: dependencies) { client in
            let ada = try await client.signedUp()
            let first = try await Self.preview(Self.file(3), as: ada)
            clock.withLock { $0 += PendingImport.lifetime }
            #expect(try await Self.press(first.token, as: ada) == .gone, "an hour later")
            #expect(try await Self.sessions(of: ada) == 0)

            let older = try await Self.preview(Self.file(3), as: ada)
            let newer = try await Self.preview(Self.file(2, name: "Walking"), as: ada)
            #expect(try await Self.press(older.token, as: ada) == .gone, "replaced by the newer preview")
            clock.withLock { $0 += PendingImport.lifetime - 1 }
            #expect(try await Self.press(newer.token, as: ada) == .seeOther, "within its hour")
            let csv = try await ada.execute(uri: "/history/export.csv", method: .get) { Self.body($0) }
            // The newer file's two sits alone.
            #expect(csv == Self.file(2, name: "Walking"))
        }
    }
}
