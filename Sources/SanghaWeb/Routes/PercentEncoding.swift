/// `application/x-www-form-urlencoded` text and queries, byte by byte. Not Foundation's
/// `removingPercentEncoding`, which also refuses a `%` that encodes nothing.
enum PercentEncoding {
    /// Whether every `%XX` of `text`, decoded with the bytes around it, makes UTF-8. A `%` not
    /// followed by two hex digits is the character itself, as the URL standard reads it
    /// (`?q=100%` typed into the address bar).
    static func decodesToUTF8(_ text: some StringProtocol) -> Bool {
        // Without a `%` it is the text it was read as (every page's path: no copy).
        guard text.utf8.contains(UInt8(ascii: "%")) else { return true }
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
