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
        let dependencies = Dependencies(
            people: data.people, data: data, friendServices: base.friendServices,
            passwords: TestDependencies.passwords, signer: TestDependencies.signer, makeFormToken: { FormPost.token },
            timeZone: TimeZone(identifier: "UTC")!)
        try await withApp(dependencies: dependencies) { client in
            let ada = try await client.signedUp()  // "Ada Lovelace", the first: the administrator
            for index in 1...50 {
                _ = try await data.people.create(
                    Person(
                        username: "member\(index)", name: String(format: "Member %02d", index),
                        createdAt: Date(timeIntervalSince1970: 1_790_000_000)),
                    passwordHash: "x")
            }
            try await ada.execute(uri: "/admin", method: .get) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(body.contains("51 people have an account."))
                #expect(body.contains("Ada Lovelace") && body.contains("Member 49") && !body.contains("Member 50"))
                #expect(body.components(separatedBy: #"<li class="item">"#).count == 51, "50 rows")
                #expect(body.contains("Page 1 of 2") && body.contains(#"<a href="/admin?page=2" rel="next">"#))
            }
            try await ada.execute(uri: "/admin?page=2", method: .get) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(body.contains("<title>Admin, page 2"))
                #expect(body.contains("Member 50") && !body.contains("Member 49"))
                #expect(body.contains("Page 2 of 2") && body.contains(#"<a href="/admin" rel="prev">"#))
            }
            try await ada.execute(uri: "/admin?page=3", method: .get) { #expect($0.status == .notFound) }
            try await ada.execute(uri: "/admin?page=0", method: .get) { #expect($0.status == .badRequest) }
            try await ada.execute(uri: "/admin?page=\(Int.max)", method: .get) { #expect($0.status == .notFound) }
        }
    }
}
