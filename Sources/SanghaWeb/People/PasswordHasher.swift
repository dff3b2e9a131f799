import Crypto
import Foundation
import HummingbirdBcrypt
import NIOCore
import NIOPosix
import SanghaCore
import Synchronization

/// bcrypt (HummingbirdBcrypt) of the password's SHA-256 (base64), on threads of its own, never
/// on the event loop. bcrypt reads its input up to a NUL byte and at most 72 bytes; the digest
/// has neither limit, so every character of a long passphrase counts and `a\0anything` is not
/// the empty password.
///
/// A hash at the default cost takes about a quarter of a second of one core; the threads are
/// half the cores (one on two), so a burst of sign-ins waits its turn instead of stalling every
/// other page. The wait is bounded (`HashingQueue`): when the strangers' queue is full the answer
/// is a quick `.busy`, and people known to the deployment go ahead of it.
public struct PasswordHasher: PasswordHashing {
    /// bcrypt's cost (log2 of its rounds): 12 in the app; tests use 4, the least bcrypt allows.
    public let cost: UInt8
    private let pool: NIOThreadPool
    private let queue: HashingQueue
    /// A hash of no one's password, checked when a username does not exist.
    private let noOne: String

    public static let defaultCost: UInt8 = 12

    /// The threads of every hasher in the process.
    private static let threads = max(1, System.coreCount / 2)
    private static let sharedPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }()

    /// - Parameter waiting: how many hashes may wait in each lane beyond those running; a full
    ///   lane answers `.busy`. nil: four per thread, about a second at cost 12.
    public init(cost: UInt8 = PasswordHasher.defaultCost, waiting: Int? = nil) {
        self.cost = cost
        self.pool = Self.sharedPool
        self.queue = HashingQueue(running: Self.threads, waiting: waiting ?? 4 * Self.threads)
        self.noOne = Bcrypt.hash(Self.digest(SecretToken.make()), cost: cost)
    }

    /// What bcrypt is given: 44 base64 characters of the password's SHA-256.
    static func digest(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    public func hash(_ password: String, lane: HashingLane) async throws -> String {
        try await run(lane) { [cost] in Bcrypt.hash(Self.digest(password), cost: cost) }
    }

    public func verify(_ password: String, against hash: String, lane: HashingLane) async throws -> Bool {
        try await run(lane) { Bcrypt.verify(Self.digest(password), hash: hash) }
    }

    public func verifyNoOne(_ password: String, lane: HashingLane) async throws {
        _ = try await verify(password, against: noOne, lane: lane)
    }

    private func run<Value: Sendable>(_ lane: HashingLane, _ body: @escaping @Sendable () throws -> Value)
        async throws -> Value
    {
        try await queue.enter(lane)
        defer { queue.leave() }
        return try await pool.runIfActive(body)
    }
}

/// Admits at most `running` hashes at once; the others wait in two lanes of at most `waiting`
/// each, the known lane served first. A hash that finds its lane full is refused at once.
final class HashingQueue: Sendable {
    private struct State {
        var running = 0
        /// Each resumed with true when its turn comes.
        var known: [CheckedContinuation<Bool, Never>] = []
        var anyone: [CheckedContinuation<Bool, Never>] = []
    }
    private let state = Mutex(State())
    private let runningLimit: Int
    private let waitingLimit: Int

    init(running: Int, waiting: Int) {
        self.runningLimit = running
        self.waitingLimit = waiting
    }

    func enter(_ lane: HashingLane) async throws(PasswordHashingError) {
        // Whether to run, wait or refuse is decided and recorded under one lock.
        let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer = state.withLock { state -> Bool? in
                if state.running < runningLimit {
                    state.running += 1
                    return true
                }
                switch lane {
                case .known where state.known.count < waitingLimit: state.known.append(continuation)
                case .anyone where state.anyone.count < waitingLimit: state.anyone.append(continuation)
                default: return false
                }
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
        if !admitted { throw .busy }
    }

    /// How many wait in each lane.
    var waiting: (known: Int, anyone: Int) { state.withLock { ($0.known.count, $0.anyone.count) } }

    /// A hash finished: the next waiting one runs in its place.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if !state.known.isEmpty { return state.known.removeFirst() }
            if !state.anyone.isEmpty { return state.anyone.removeFirst() }
            state.running -= 1
            return nil
        }
        next?.resume(returning: true)
    }
}
