import Crypto
import Foundation
import HummingbirdBcrypt
import NIOCore
import NIOPosix
import SanghaCore

/// bcrypt (HummingbirdBcrypt) of the password's SHA-256 (base64), on threads of its own, never
/// on the event loop. bcrypt reads its input up to a NUL byte and at most 72 bytes; the digest
/// has neither limit, so every character of a long passphrase counts and `a\0anything` is not
/// the empty password.
///
/// A hash at the default cost takes about a quarter of a second of one core; the threads are
/// half the cores (one on two), so a burst of sign-ins waits its turn instead of stalling every
/// other page.
public struct PasswordHasher: PasswordHashing {
    /// bcrypt's cost (log2 of its rounds): 12 in the app; tests use 4, the least bcrypt allows.
    public let cost: UInt8
    private let pool: NIOThreadPool
    /// A hash of no one's password, checked when a username does not exist.
    private let noOne: String

    public static let defaultCost: UInt8 = 12

    /// The threads of every hasher in the process.
    private static let sharedPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, System.coreCount / 2))
        pool.start()
        return pool
    }()

    public init(cost: UInt8 = PasswordHasher.defaultCost) {
        self.cost = cost
        self.pool = Self.sharedPool
        self.noOne = Bcrypt.hash(Self.digest(FormToken.random()), cost: cost)
    }

    /// What bcrypt is given: 44 base64 characters of the password's SHA-256.
    static func digest(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    public func hash(_ password: String) async throws -> String {
        try await pool.runIfActive { [cost] in Bcrypt.hash(Self.digest(password), cost: cost) }
    }

    public func verify(_ password: String, against hash: String) async -> Bool {
        (try? await pool.runIfActive { Bcrypt.verify(Self.digest(password), hash: hash) }) ?? false
    }

    public func verifyNoOne(_ password: String) async {
        _ = await verify(password, against: noOne)
    }
}
