import HummingbirdBcrypt
import NIOCore
import NIOPosix
import SanghaCore

/// bcrypt (HummingbirdBcrypt) on threads of its own, never on the event loop. A hash at the
/// default cost takes about a quarter of a second of one core; the threads are half the cores
/// (one on two), so a burst of sign-ins waits its turn instead of stalling every other page.
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
        self.noOne = Bcrypt.hash(FormToken.random(), cost: cost)
    }

    public func hash(_ password: String) async throws -> String {
        try await pool.runIfActive { [cost] in Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, against hash: String) async -> Bool {
        (try? await pool.runIfActive { Bcrypt.verify(password, hash: hash) }) ?? false
    }

    public func verifyNoOne(_ password: String) async {
        _ = await verify(password, against: noOne)
    }
}
