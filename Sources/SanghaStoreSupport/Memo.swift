import Foundation
import Synchronization

/// Whether every change made outside this process reaches it before its next request, so that
/// what it keeps in memory can be trusted: PostgreSQL's change feed while it listens, SQLite's
/// check for other processes' writes to the file while it is recent. A `Memo` keeps and serves
/// values only while its watch says so.
public protocol ChangeWatch: Sendable {
    var hearsEveryChange: Bool { get }
}

/// A process alone on its data (a database in memory): nothing changes behind its back.
public struct AloneOnData: ChangeWatch {
    public init() {}
    public var hearsEveryChange: Bool { true }
}

/// A process that cannot tell when others change its data: it keeps nothing.
public struct UnwatchedData: ChangeWatch {
    public init() {}
    public var hearsEveryChange: Bool { false }
}

/// Values read from the database, kept in memory so the next request need not read them again:
/// the sign-in sessions found, profiles read by id, pages of each person's profiles, calendar
/// feeds. The same rules for all of them:
/// - a value is kept and served only while the watch hears every change (else each request
///   reads, and nothing read then is kept);
/// - a value is never served past `maximumAge`, when there is one;
/// - every forget moves a generation on, and a value read before a forget is not kept: a read
///   that raced a change cannot put the old value back;
/// - more than `limit` values and the memory starts again (it is only a memo);
/// - requests that miss the same key at once share one read (`value(_:if:keeping:reading:)`): on
///   PostgreSQL, where a value is used for `maximumAge` at most, the 64 requests of a busy
///   page found it old together and each read it again, and those reads were the page's tail.
public final class Memo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// When a read began, and what had been forgotten by then: what it keeps must not be older.
    public struct Read: Sendable {
        fileprivate let generation: Int
        fileprivate let began: ContinuousClock.Instant
    }

    /// A read under way, which the requests missing its key join while nothing was forgotten
    /// since it began. Its task is a `Task<Result<Value, Failure>, Never>` for the reader's own
    /// error type.
    private struct Flight {
        let id: Int
        let generation: Int
        let task: any Sendable
    }

    private struct State {
        var entries: [Key: (value: Value, read: ContinuousClock.Instant)] = [:]
        /// Moves on at every forget: a read begun before one is not kept.
        var generation = 0
        var flights: [Key: Flight] = [:]
        var flightsBegun = 0
    }

    private let watch: any ChangeWatch
    private let maximumAge: Duration?
    private let limit: Int
    private let state = Mutex(State())

    public init(watch: any ChangeWatch, maximumAge: Duration? = nil, limit: Int = 10_000) {
        self.watch = watch
        self.maximumAge = maximumAge
        self.limit = limit
    }

    /// The value kept for `key`, if it may be used now (and is `usable`, by the caller's own
    /// rule); else nil, and the read to keep the value read from the database with (nil when
    /// nothing read now may be kept).
    public func value(_ key: Key, if usable: (Value) -> Bool = { _ in true }) -> (Value?, read: Read?) {
        guard watch.hearsEveryChange else { return (nil, nil) }
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let entry = state.entries[key], maximumAge.map({ now - entry.read < $0 }) ?? true,
                usable(entry.value)
            else { return (nil, Read(generation: state.generation, began: now)) }
            return (entry.value, nil)
        }
    }

    /// The value kept for `key`, if it may be used now (and is `usable`); else what `read`
    /// gives, read once for every request that misses `key` meanwhile, and kept by the rules
    /// above. A request that comes after a forget does not join a read begun before it.
    /// A value read that is not `worthKeeping` (an answer for its reader alone) is not kept.
    public func value<Failure: Error>(
        _ key: Key, if usable: (Value) -> Bool = { _ in true },
        keeping worthKeeping: @escaping @Sendable (Value) -> Bool = { _ in true },
        reading read: @escaping @Sendable () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        typealias Shared = Task<Result<Value, Failure>, Never>
        guard watch.hearsEveryChange else { return try await read() }
        let now = ContinuousClock.now
        let (kept, shared): (Value?, Shared?) = state.withLock { state in
            if let entry = state.entries[key], maximumAge.map({ now - entry.read < $0 }) ?? true,
                usable(entry.value)
            {
                return (entry.value, nil)
            }
            if let flight = state.flights[key], flight.generation == state.generation,
                let task = flight.task as? Shared
            {
                return (nil, task)
            }
            state.flightsBegun += 1
            let flight = (id: state.flightsBegun, began: Read(generation: state.generation, began: now))
            let task = Shared {
                let result: Result<Value, Failure>
                do throws(Failure) { result = .success(try await read()) } catch { result = .failure(error) }
                self.land(result, for: key, flight: flight.id, from: flight.began, keeping: worthKeeping)
                return result
            }
            state.flights[key] = Flight(id: flight.id, generation: state.generation, task: task)
            return (nil, task)
        }
        if let kept { return kept }
        guard let shared else { return try await read() }
        let value = try await shared.value.get()
        // Read for another request's rule (another day, say): this one reads for itself.
        return usable(value) ? value : try await read()
    }

    /// A shared read ended: kept if nothing was forgotten since it began; no longer joined.
    private func land<Failure: Error>(
        _ result: Result<Value, Failure>, for key: Key, flight: Int, from read: Read, keeping: (Value) -> Bool
    ) {
        state.withLock { state in
            if state.flights[key]?.id == flight { state.flights[key] = nil }
            guard case .success(let value) = result, keeping(value), state.generation == read.generation,
                watch.hearsEveryChange
            else { return }
            if state.entries.count >= limit { state.entries.removeAll() }
            state.entries[key] = (value, read.began)
        }
    }

    /// Keeps `value` from `read`, unless something was forgotten since it began.
    public func keep(_ value: Value, for key: Key, from read: Read?) {
        guard let read, watch.hearsEveryChange else { return }
        state.withLock { state in
            guard state.generation == read.generation else { return }
            if state.entries.count >= limit { state.entries.removeAll() }
            state.entries[key] = (value, read.began)
        }
    }

    /// After this process wrote `key`: `value` is what the database holds now (nil when it is
    /// gone or not known). Reads begun before are not kept.
    public func wrote(_ value: Value?, for key: Key) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.generation += 1
            if let value, watch.hearsEveryChange {
                if state.entries.count >= limit { state.entries.removeAll() }
                state.entries[key] = (value, now)
            } else {
                state.entries[key] = nil
            }
        }
    }

    public func forget(_ key: Key) {
        state.withLock { state in
            state.entries[key] = nil
            state.generation += 1
        }
    }

    public func forget(where matches: (Key, Value) -> Bool) {
        state.withLock { state in
            state.entries = state.entries.filter { !matches($0.key, $0.value.value) }
            state.generation += 1
        }
    }

    public func forgetAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.generation += 1
        }
    }
}
