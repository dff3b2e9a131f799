import Foundation
import SanghaCore
import Synchronization

/// A profile's segments as the JSON text storage keeps them in.
///
/// Decoding is remembered by the text: `JSONDecoder` on every row was most of a list page's
/// time (docs/performance.md, `scripts/bench-scale.sh`). A text always decodes to the same
/// segments, so what is remembered can never be stale, whichever instance
/// wrote it; the memory holds at most `memoLimit` texts, and starts over when full.
public enum SegmentsJSON {
    static let memoLimit = 4096
    private static let memo = Mutex<[String: [Segment]]>([:])

    public static func decode(_ text: String) throws -> [Segment] {
        if let segments = memo.withLock({ $0[text] }) { return segments }
        let segments = try JSONDecoder().decode([Segment].self, from: Data(text.utf8))
        memo.withLock { memo in
            if memo.count >= memoLimit { memo.removeAll(keepingCapacity: true) }
            memo[text] = segments
        }
        return segments
    }

    public static func encode(_ segments: [Segment]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(segments), as: UTF8.self)
    }
}
