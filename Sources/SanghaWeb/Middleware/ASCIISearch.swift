/// An ASCII word looked for in a header's or a path's bytes, one byte at a time. Foundation's
/// `contains` (1 % of the editor's instructions) and the standard library's generic
/// `firstRange(of:)` (23 k instructions a call, unspecialized) cost more than the request's own
/// work for a word of a few letters.
enum ASCIISearch {
    /// Whether `text` holds `word`; with `anyCase`, a letter of `text` in either case (`word`'s
    /// letters lowercase, and no other characters: `anyCase` folds bytes with `| 0x20`).
    static func contains(_ word: StaticString, in text: String, anyCase: Bool = false) -> Bool {
        let needle = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count) {
                var matched = 0
                while matched < needle.count {
                    let byte = bytes[start + matched]
                    guard (anyCase ? byte | 0x20 : byte) == needle[matched] else { break }
                    matched += 1
                }
                if matched == needle.count { return true }
            }
            return false
        }
    }
}
