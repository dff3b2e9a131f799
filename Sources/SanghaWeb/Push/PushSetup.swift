import Foundation
import SanghaCore
import SanghaPush

/// Notifications as the routes see them, when Sangha sends them (`--push-contact`): where
/// devices and choices are kept, the key browsers subscribe with, which endpoints are taken,
/// and the scheduler to wake when something may be due at once.
public struct PushSetup: Sendable {
    public var repository: any PushRepository
    /// The VAPID public key, base64url (65 bytes): `GET /push/key`.
    public var publicKey: String
    public var endpoints: PushEndpoints
    /// Looks for what is due now, not at the next tick.
    public var nudge: @Sendable () -> Void

    public init(
        repository: any PushRepository, publicKey: String, endpoints: PushEndpoints,
        nudge: @escaping @Sendable () -> Void = {}
    ) {
        (self.repository, self.publicKey, self.endpoints, self.nudge) = (repository, publicKey, endpoints, nudge)
    }
}
