/// Makes and checks password hashes (bcrypt in the app). Slow on purpose, so the live one runs
/// off the event loop; a view model only awaits it.
public protocol PasswordHashing: Sendable {
    func hash(_ password: String) async throws -> String
    /// Whether `password` is the one `hash` was made from.
    func verify(_ password: String, against hash: String) async -> Bool
    /// Checks `password` against a hash of no one's, taking as long as `verify`: a sign-in for a
    /// username that does not exist costs the same time as a wrong password.
    func verifyNoOne(_ password: String) async
}
