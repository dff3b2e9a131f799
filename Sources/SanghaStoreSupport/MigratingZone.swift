import Foundation

/// The time zone of the instance that applies a migration, as an SQL string literal: the zone
/// the people and group sits already stored are given when zones are added (a column's DEFAULT
/// takes no bind parameter, so the name is checked, not escaped). A name of anything but
/// letters, digits and `/_+-` is UTC.
public enum MigratingZone {
    public static var sqlLiteral: String { sqlLiteral(of: TimeZone.current.identifier) }

    static func sqlLiteral(of name: String) -> String {
        let plain =
            !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "+"),
                    UInt8(ascii: "-"):
                    true
                default: false
                }
            }
        return "'\(plain ? name : "UTC")'"
    }
}
