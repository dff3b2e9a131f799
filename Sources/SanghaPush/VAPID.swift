import Crypto
import Foundation
import SanghaTokens
import Synchronization

/// RFC 8292: who sends (the deployment's key pair and contact), proved to each push service by
/// a JWT signed with ES256 in the `Authorization: vapid t=JWT, k=KEY` header.
///
/// One key pair per deployment, kept in the database: the browsers' subscriptions are bound to
/// its public key (`applicationServerKey`), so every instance must sign with the same one.
/// A token names the push service's origin (`aud`), when it expires (`exp`, twelve hours on)
/// and the contact (`sub`); it is kept per origin and used again until an hour before it
/// expires, so a thousand messages to one push service cost one signature.
public final class VAPID: Sendable {
    /// How long a token is good for (RFC 8292 allows 24 hours; push services ask for less).
    public static let lifetime: TimeInterval = 12 * 3600
    /// A token with less than this left is made again.
    public static let renewal: TimeInterval = 3600

    public let privateKey: P256.Signing.PrivateKey
    /// `mailto:` or `https:`, as the operator gave it (`--push-contact`).
    public let contact: String
    /// The public key as browsers take it: the 65-byte uncompressed point, base64url.
    public let publicKeyText: String
    private let now: @Sendable () -> Date
    private let tokens = Mutex<[String: (token: String, expires: Date)]>([:])

    public init(privateKey: P256.Signing.PrivateKey, contact: String, now: @escaping @Sendable () -> Date = { Date() })
    {
        self.privateKey = privateKey
        self.contact = contact
        self.now = now
        publicKeyText = Base64URL.encode(privateKey.publicKey.x963Representation)
    }

    /// From the private key's 32 bytes as the database keeps them; nil when they are not one.
    public convenience init?(rawPrivateKey: [UInt8], contact: String, now: @escaping @Sendable () -> Date = { Date() })
    {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: rawPrivateKey) else { return nil }
        self.init(privateKey: key, contact: contact, now: now)
    }

    /// A new key pair's private key, as the database keeps it (32 bytes).
    public static func makePrivateKey() -> [UInt8] { [UInt8](P256.Signing.PrivateKey().rawRepresentation) }

    /// The 65-byte uncompressed point.
    public var publicKey: [UInt8] { [UInt8](privateKey.publicKey.x963Representation) }

    /// The `Authorization` header for a message to `endpoint`.
    public func authorization(for endpoint: URL) -> String {
        "vapid t=\(token(for: PushEndpoints.origin(of: endpoint) ?? "")), k=\(publicKeyText)"
    }

    /// The token for the push service at `origin`: the one kept, or a new one when it has less
    /// than `renewal` left.
    public func token(for origin: String) -> String {
        let date = now()
        if let kept = tokens.withLock({ $0[origin] }), kept.expires.timeIntervalSince(date) > Self.renewal {
            return kept.token
        }
        // Whole seconds, rounded down: never past twelve hours from now.
        let expires = Date(timeIntervalSince1970: (date.timeIntervalSince1970 + Self.lifetime).rounded(.down))
        let token = Self.token(audience: origin, expires: expires, subject: contact, key: privateKey)
        tokens.withLock { $0[origin] = (token, expires) }
        return token
    }

    /// A JWT signed with ES256 (the signature as r and s, 32 bytes each: RFC 7518 §3.4).
    public static func token(audience: String, expires: Date, subject: String, key: P256.Signing.PrivateKey)
        -> String
    {
        struct Claims: Encodable {
            let aud: String
            let exp: Int
            let sub: String
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let claims =
            (try? encoder.encode(Claims(aud: audience, exp: Int(expires.timeIntervalSince1970), sub: subject)))
            ?? Data()
        let signingInput = header + "." + Base64URL.encode(claims)
        guard let signature = try? key.signature(for: Data(signingInput.utf8)) else {
            preconditionFailure("P-256 refused to sign")
        }
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// `{"typ":"JWT","alg":"ES256"}`, encoded once.
    static let header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8))

    /// Why `contact` cannot be the `sub` of the tokens, or nil: a `mailto:` address or an
    /// `https:` URL, whose host is not one a push service refuses (Apple's refuses `localhost`
    /// and the names reserved for tests and examples).
    public static func contactRefusal(_ contact: String) -> String? {
        let lowered = contact.lowercased()
        let host: String
        if lowered.hasPrefix("mailto:") {
            let address = lowered.dropFirst("mailto:".count)
            let parts = address.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
                !address.contains(where: { $0.isWhitespace || $0 == "?" })
            else { return "it is neither mailto:ADDRESS nor an https:// URL" }
            host = String(parts[1])
        } else if lowered.hasPrefix("https://") {
            guard let url = URLComponents(string: contact), let name = url.host, !name.isEmpty else {
                return "its URL has no host"
            }
            host = name.lowercased()
        } else {
            return "it is neither mailto:ADDRESS nor an https:// URL"
        }
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        if name == "localhost" || name.hasSuffix(".localhost") { return "push services refuse a contact on localhost" }
        for reserved in ["local", "invalid", "test", "example"] where name == reserved || name.hasSuffix("." + reserved)
        {
            return "push services refuse a contact on .\(reserved)"
        }
        return nil
    }
}
