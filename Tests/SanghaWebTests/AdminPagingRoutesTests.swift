import Foundation
import HummingbirdTesting
import SanghaCore
import SanghaStore
import SanghaWeb
import Testing

/// `/admin` with more people than a page, on SQLite in memory.
@Suite("Admin's pages")
struct AdminPagingRoutesTests {
    @Test("/admin shows a page of people at a time with how many there are; past the last page is 404")
    func pages() async throws {
        let data = SQLitePersonalData(database: try SanghaDatabase.inMemory())
        let base = try GroupsRoutesTests.dependencies()
        var dependencies = Dependencies(
            people: data.people, data: data, friendServices: base.friendServices,
            passwords: TestDependencies.passwords, signer: TestDependencies.signer, makeFormToken: { FormPost.token },
            timeZone: TimeZone(identifier: "UTC")!)
        dependencies.now = { GroupsRoutesTests.tuesday }  // the pages are compared whole
        try await withApp(dependencies: dependencies) { client in
            let ada = try await client.signedUp()  // "Ada Lovelace", the first: the administrator
            for index in 1...50 {
                _ = try await data.people.create(
                    Person(
                        username: "member\(index)", name: String(format: "Member %02d", index),
                        createdAt: Date(timeIntervalSince1970: 1_790_000_000)),
                    passwordHash: "x")
            }
            // "51 people have an account.", Ada Lovelace and Member 01 to 49, "Page 1 of 2" and Next.
            try await ada.execute(uri: "/admin", method: .get) { response in
                assertResponse(response, named: "page-1")
                #expect(
                    String(buffer: response.body).components(separatedBy: #"<li class="item">"#).count == 51, "50 rows")
            }
            // "Admin, page 2": Member 50 alone, "Page 2 of 2" and Previous.
            try await ada.execute(uri: "/admin?page=2", method: .get) { assertResponse($0, named: "page-2") }
            try await ada.execute(uri: "/admin?page=3", method: .get) { #expect($0.status == .notFound) }
            try await ada.execute(uri: "/admin?page=0", method: .get) { #expect($0.status == .badRequest) }
            try await ada.execute(uri: "/admin?page=\(Int.max)", method: .get) { #expect($0.status == .notFound) }
        }
    }
}
