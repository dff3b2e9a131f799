import Foundation

/// Values kept by key, made once and given back until `limit` are kept; past that, all go. For
/// what a page makes the same for many requests and that is never stale: a value is a function
/// of its key (`FormattedTexts`, the settings page's zone menus), or is given back only while
/// `valid` says it still is (each person's `/history` parts, compared with what they were made
/// from).
public final class KeptValues<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    public let limit: Int
    private let lock = NSLock()
    private var values: [Key: Value] = [:]

    public init(limit: Int) {
        self.limit = limit
    }

    /// The value kept for `key` when `valid` holds for it, else `make()`'s, kept.
    public func value(for key: Key, if valid: (Value) -> Bool = { _ in true }, _ make: () -> Value) -> Value {
        if let kept = lock.withLock({ values[key] }), valid(kept) { return kept }
        let value = make()
        lock.withLock {
            if values.count >= limit, values[key] == nil { values.removeAll() }
            values[key] = value
        }
        return value
    }

    public var count: Int { lock.withLock { values.count } }
}

/// Values kept by key with what each was made from (`Source`), given back only when asked for
/// from the very same, compared each time: a part of a page a person reads again and again
/// (their `/history`'s drawing, a group's roster, `/admin`'s rows) is made once while what it
/// shows stays the same, and is never stale, so nothing needs forgetting.
public final class KeptParts<Key: Hashable & Sendable, Source: Equatable & Sendable, Value: Sendable>: Sendable {
    private struct Made: Sendable {
        let source: Source
        let value: Value
    }

    private let kept: KeptValues<Key, Made>

    public init(limit: Int) {
        kept = KeptValues(limit: limit)
    }

    /// The value kept for `key` when made from `source`, else `make()`'s, kept.
    public func value(for key: Key, from source: Source, _ make: () -> Value) -> Value {
        kept.value(for: key, if: { $0.source == source }) { Made(source: source, value: make()) }.value
    }

    public var count: Int { kept.count }
}
