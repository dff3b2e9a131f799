import Foundation
import SanghaCore

/// Who knocks, as the limits on guessing see it: the client's address, and the account whose
/// device cookie the browser carries (verified by the web layer). A device that once signed in
/// to an account is blocked neither by the failures of its username nor by those of its
/// address; its own failures are counted against its cookie.
public struct Requester: Sendable, Equatable {
    /// The client's address (the proxy's client with `--trusted-proxies`); nil: unknown.
    public var address: String?
    /// The account and nonce of the browser's device cookie.
    public var device: Device?
    /// Sign-ups and failed sign-ins allowed from one address in the window; 0: no limit.
    public var addressLimit: Int

    public struct Device: Sendable, Equatable {
        public var username: String
        public var nonce: String

        public init(username: String, nonce: String) {
            (self.username, self.nonce) = (username, nonce)
        }
    }

    public init(address: String? = nil, device: Device? = nil, addressLimit: Int = 0) {
        self.address = address
        self.device = device
        self.addressLimit = addressLimit
    }

    /// The device cookie's nonce when it is for `username`.
    func device(for username: String) -> String? {
        guard let device, device.username.lowercased() == username.lowercased() else { return nil }
        return device.nonce
    }

    /// The queue a password check of `username` waits in.
    func lane(for username: String) -> HashingLane { device(for: username) == nil ? .anyone : .known }

    private var addressKey: String? {
        guard let address, addressLimit > 0 else { return nil }
        return AttemptKey.address(address)
    }

    /// Counts a password check of `username` before it is made; the minutes to wait when a
    /// limit is reached (nothing is counted then).
    func countCheck(of username: String, people: any PeopleRepository, at date: Date)
        async throws(PeopleRepositoryError) -> Int?
    {
        if let nonce = device(for: username) {
            return try await count(AttemptKey.device(nonce), limit: SignInSession.failureLimit, people, date)
        }
        if let addressKey, let minutes = try await count(addressKey, limit: addressLimit, people, date) {
            return minutes
        }
        return try await count(username, limit: SignInSession.failureLimit, people, date)
    }

    /// After a right password: the counts of the username and the device start again, and the
    /// address is not held responsible for it.
    func checkSucceeded(of username: String, people: any PeopleRepository, at date: Date)
        async throws(PeopleRepositoryError)
    {
        if let nonce = device(for: username) {
            try await people.clearFailures(of: AttemptKey.device(nonce))
            return
        }
        try await people.clearFailures(of: username)
        if let addressKey { try await people.forgetAttempt(of: addressKey, at: date) }
    }

    /// A check refused before it was made (the hashing queue was full): its count is taken back,
    /// so a flood the queue turns away locks no one out.
    func checkNotMade(of username: String, people: any PeopleRepository, at date: Date) async {
        let keys = device(for: username).map { [AttemptKey.device($0)] } ?? [username] + [addressKey].compactMap { $0 }
        for key in keys { try? await people.forgetAttempt(of: key, at: date) }
    }

    /// Counts a sign-up against the address; the minutes to wait when its limit is reached.
    func countSignUp(people: any PeopleRepository, at date: Date) async throws(PeopleRepositoryError) -> Int? {
        guard let addressKey else { return nil }
        return try await count(addressKey, limit: addressLimit, people, date)
    }

    private func count(_ key: String, limit: Int, _ people: any PeopleRepository, _ date: Date)
        async throws(PeopleRepositoryError) -> Int?
    {
        let earlier = try await people.countAttempt(of: key, limit: limit, at: date)
        return earlier.count >= limit ? Guessing.minutesLeft(earlier, limit: limit, at: date) : nil
    }

    public static func tooManyAttempts(minutes: Int) -> String {
        "Too many attempts. Try again in \(CountText.of(minutes, "minute"))."
    }

    /// The same in `words`' language.
    public static func tooManyAttempts(minutes: Int, words: Words) -> String {
        words.commonTooManyAttempts(minutes)
    }
}
