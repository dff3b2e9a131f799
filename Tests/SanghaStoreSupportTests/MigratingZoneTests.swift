import Testing

@testable import SanghaStoreSupport

@Suite("The migrating instance's time zone as SQL")
struct MigratingZoneTests {
    @Test("A tz name is quoted as it is; anything else is UTC, never put into the SQL")
    func literal() {
        #expect(MigratingZone.sqlLiteral(of: "Etc/UTC") == "'Etc/UTC'")
        #expect(MigratingZone.sqlLiteral(of: "America/Argentina/Buenos_Aires") == "'America/Argentina/Buenos_Aires'")
        #expect(MigratingZone.sqlLiteral(of: "Etc/GMT+3") == "'Etc/GMT+3'")
        #expect(MigratingZone.sqlLiteral(of: "x'; DROP TABLE person; --") == "'UTC'")
        #expect(MigratingZone.sqlLiteral(of: "") == "'UTC'")
    }
}
