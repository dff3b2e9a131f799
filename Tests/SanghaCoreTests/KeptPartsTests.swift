import SanghaCore
import Synchronization
import Testing

/// `KeptValues` and `KeptParts`: a value made once and given back while it may be, and all
/// forgotten past the limit.
struct KeptPartsTests {
    final class Made: Sendable {
        let count = Atomic<Int>(0)
        func make(_ text: String) -> String {
            count.add(1, ordering: .relaxed)
            return text.uppercased()
        }
        var made: Int { count.load(ordering: .relaxed) }
    }

    @Test(
        "A part is given back only when asked for from the same source; another source makes it again, kept in its place"
    )
    func sameSource() {
        let (parts, made) = (KeptParts<Int, String, String>(limit: 10), Made())
        #expect(parts.value(for: 1, from: "ada") { made.make("ada") } == "ADA")
        #expect(parts.value(for: 1, from: "ada") { made.make("ada") } == "ADA")
        #expect(made.made == 1)
        #expect(parts.value(for: 1, from: "grace") { made.make("grace") } == "GRACE")
        #expect(parts.value(for: 1, from: "ada") { made.make("ada") } == "ADA", "one kept a key: the last")
        #expect(made.made == 3)
        #expect(parts.value(for: 2, from: "ada") { made.make("ada") } == "ADA")
        #expect(parts.count == 2)
    }

    @Test("Past the limit everything kept goes, and the new value is kept")
    func limit() {
        let (values, made) = (KeptValues<Int, String>(limit: 3), Made())
        for key in 0..<3 { _ = values.value(for: key) { made.make("\(key)") } }
        #expect(values.count == 3)
        _ = values.value(for: 3) { made.make("3") }
        #expect(values.count == 1)
        _ = values.value(for: 3) { made.make("3") }
        #expect(made.made == 4)
    }
}
