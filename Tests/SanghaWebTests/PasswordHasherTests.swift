import Foundation
import SanghaCore
import Synchronization
import Testing

@testable import SanghaWeb

/// bcrypt is given the password's SHA-256, so all of a password counts.
@Suite("Password hasher")
struct PasswordHasherTests {
    let hasher = PasswordHasher(cost: 4)

    @Test("The right password verifies, another does not; the hash is bcrypt's, never the password")
    func verifies() async throws {
        let hash = try await hasher.hash("correct horse battery")
        #expect(hash.hasPrefix("$2b$04$") || hash.hasPrefix("$2a$04$") || hash.hasPrefix("$2y$04$"))
        #expect(!hash.contains("correct"))
        #expect(try await hasher.verify("correct horse battery", against: hash))
        #expect(try await !hasher.verify("correct horse batterY", against: hash))
        #expect(try await !hasher.verify("correct horse battery", against: "not a hash"))
    }

    @Test("Past bcrypt's 72 bytes and past a NUL byte, every character still counts")
    func wholePassword() async throws {
        let long = String(repeating: "sitting quietly ", count: 5)  // 80 bytes
        let hash = try await hasher.hash(long + "A")
        #expect(try await hasher.verify(long + "A", against: hash))
        #expect(try await !hasher.verify(long + "B", against: hash))
        let withNUL = try await hasher.hash("meditation\u{0}one")
        #expect(try await !hasher.verify("meditation\u{0}two", against: withNUL))
        #expect(try await !hasher.verify("meditation", against: withNUL))
    }

    @Test("A full queue answers busy at once; a known browser's hash goes before the strangers' waiting")
    func boundedQueue() async throws {
        let queue = HashingQueue(running: 1, waiting: 1)
        try await queue.enter(.anyone)  // runs
        let order = Order()
        let stranger = Task {
            try await queue.enter(.anyone)
            order.names.withLock { $0.append("stranger") }
            queue.leave()
        }
        // Until the stranger waits, another stranger would still find room.
        while queue.waiting.anyone == 0 { await Task.yield() }
        var refused = false
        do { try await queue.enter(.anyone) } catch { refused = error == .busy }
        #expect(refused)
        let known = Task {
            try await queue.enter(.known)
            order.names.withLock { $0.append("known") }
            queue.leave()
        }
        while queue.waiting.known == 0 { await Task.yield() }
        queue.leave()  // the running hash ends
        try await stranger.value
        try await known.value
        #expect(order.names.withLock { $0 } == ["known", "stranger"])
    }

    final class Order: Sendable {
        let names = Mutex<[String]>([])
    }
}
