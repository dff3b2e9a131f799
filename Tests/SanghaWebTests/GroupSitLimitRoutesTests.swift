import Foundation
import HummingbirdTesting
import SanghaCore
import SanghaViewModels
import SanghaWeb
import Testing

/// A host who schedules and cancels sits in a loop, through the routes, on SQLite in memory.
@Suite("Group sits' limits")
struct GroupSitLimitRoutesTests {
    @Test("Cancelled sits not over count too: past the limit the host reads why, and nothing is scheduled")
    func cancelledSitsCount() async throws {
        var dependencies = try GroupsRoutesTests.dependencies()
        dependencies.now = { Date(timeIntervalSince1970: 1_795_543_200) }  // 2026-11-24 18:00 UTC
        try await withApp(dependencies: dependencies) { client in
            let ada = try await client.signedUp()
            try await ada.post("/groups", form: "name=Zen") { #expect($0.status == .seeOther) }
            try await ada.post("/profiles", form: "name=Dawn") { #expect($0.status == .seeOther) }
            for sit in 1...GroupSit.limitNotOverPerGroup {
                let flash = try await ada.post("/groups/1/sits", form: "profile=1&startsAt=2026-12-01T07:00") {
                    try GroupsRoutesTests.flash($0)
                }
                #expect(flash == "The sit is scheduled.")
                try await ada.post("/groups/1/sits/\(sit)/cancel", form: "") { #expect($0.status == .seeOther) }
            }
            let refused = try await ada.post("/groups/1/sits", form: "profile=1&startsAt=2026-12-01T07:00") {
                response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/groups/1")
                return try GroupsRoutesTests.flash(response)
            }
            #expect(refused == GroupSitAction.tooManyNotOverMessage)
            #expect(
                GroupSitAction.tooManyNotOverMessage
                    == "A group can have at most \(GroupSit.limitNotOverPerGroup) sits that are not over, cancelled "
                    + "ones included: a cancelled sit stays in its members' calendars, marked cancelled, until its "
                    + "time has passed. Schedule this one once some are over.")
            try await ada.execute(uri: "/groups/1/sits/\(GroupSit.limitNotOverPerGroup + 1)", method: .get) {
                #expect($0.status == .notFound)
            }
        }
    }
}
