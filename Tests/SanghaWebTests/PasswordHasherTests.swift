import Foundation
import SanghaWeb
import Testing

/// bcrypt is given the password's SHA-256, so all of a password counts.
@Suite("Password hasher")
struct PasswordHasherTests {
    let hasher = PasswordHasher(cost: 4)

    @Test("The right password verifies, another does not; the hash is bcrypt's, never the password")
    func verifies() async throws {
        let hash = try await hasher.hash("correct horse battery")
        #expect(hash.hasPrefix("$2b$04$") || hash.hasPrefix("$2a$04$") || hash.hasPrefix("$2y$04$"))
        #expect(!hash.contains("correct"))
        #expect(await hasher.verify("correct horse battery", against: hash))
        #expect(await !hasher.verify("correct horse batterY", against: hash))
        #expect(await !hasher.verify("correct horse battery", against: "not a hash"))
    }

    @Test("Past bcrypt's 72 bytes and past a NUL byte, every character still counts")
    func wholePassword() async throws {
        let long = String(repeating: "sitting quietly ", count: 5)  // 80 bytes
        let hash = try await hasher.hash(long + "A")
        #expect(await hasher.verify(long + "A", against: hash))
        #expect(await !hasher.verify(long + "B", against: hash))
        let withNUL = try await hasher.hash("meditation\u{0}one")
        #expect(await !hasher.verify("meditation\u{0}two", against: withNUL))
        #expect(await !hasher.verify("meditation", against: withNUL))
    }
}
