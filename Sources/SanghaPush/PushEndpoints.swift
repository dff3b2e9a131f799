import Crypto
import Foundation
import SanghaTokens

/// Which subscriptions are taken: an endpoint at a known push service, over https, or at an
/// origin the operator allowed (`--push-allow-endpoint`: a private push service, or a test's on
/// loopback); a browser key on P-256 and a 16-byte secret. A subscription is never a way to
/// make the server call an address of someone's choosing: nothing else is ever posted to, and
/// no redirect is followed.
public struct PushEndpoints: Sendable, Equatable {
    /// The hosts of the browsers' push services, each a suffix: Chrome's (Firebase Cloud
    /// Messaging), Firefox's (autopush), Safari's (Apple), Edge's (Windows Push).
    public static let knownServices = [
        ".googleapis.com", ".push.services.mozilla.com", ".push.apple.com", ".notify.windows.com",
    ]
    /// An endpoint longer than this is not a push service's.
    public static let longestEndpoint = 2048

    /// Origins allowed besides the known services (`scheme://host[:port]`, as `origin(of:)`
    /// writes them).
    public let allowedOrigins: Set<String>

    public init(allowedOrigins: some Sequence<String> = []) {
        self.allowedOrigins = Set(allowedOrigins)
    }

    /// Why a subscription is refused.
    public enum Refusal: Error, Equatable, Sendable {
        case noEndpoint
        /// Not an absolute URL, too long, or with a user, password or fragment.
        case malformedEndpoint
        /// A known push service's host, but not over https.
        case notHTTPS
        /// Neither a known push service nor an allowed origin.
        case unknownService
        /// `p256dh` is not base64url of a point on P-256.
        case badKey
        /// `auth` is not base64url of 16 bytes.
        case badAuth
    }

    /// A subscription as it is kept and used.
    public struct Subscription: Sendable, Equatable {
        public let endpoint: URL
        /// The browser's public key, the 65-byte uncompressed point.
        public let p256dh: [UInt8]
        /// The browser's authentication secret, 16 bytes.
        public let auth: [UInt8]
    }

    /// The subscription posted, checked.
    public func check(endpoint: String, p256dh: String, auth: String) -> Result<Subscription, Refusal> {
        let url: URL
        switch check(endpoint: endpoint) {
        case .success(let checked): url = checked
        case .failure(let refusal): return .failure(refusal)
        }
        guard let key = Base64URL.decode(p256dh.trimmingCharacters(in: .whitespaces)), key.count == 65, key[0] == 4,
            (try? P256.KeyAgreement.PublicKey(x963Representation: key)) != nil
        else { return .failure(.badKey) }
        guard let secret = Base64URL.decode(auth.trimmingCharacters(in: .whitespaces)), secret.count == 16 else {
            return .failure(.badAuth)
        }
        return .success(Subscription(endpoint: url, p256dh: key, auth: secret))
    }

    /// The endpoint, if it may be posted to.
    public func check(endpoint text: String) -> Result<URL, Refusal> {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return .failure(.noEndpoint) }
        guard text.utf8.count <= Self.longestEndpoint, let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil, components.fragment == nil,
            let url = components.url
        else { return .failure(.malformedEndpoint) }
        // Neither http nor https (ftp:, ws:): never posted to.
        guard let origin = Self.origin(of: url) else { return .failure(.notHTTPS) }
        if allowedOrigins.contains(origin) { return .success(url) }
        guard Self.knownServices.contains(where: { host.hasSuffix($0) }) else { return .failure(.unknownService) }
        guard scheme == "https" else { return .failure(.notHTTPS) }
        // A known service on another port is not the service.
        guard components.port == nil || components.port == 443 else { return .failure(.unknownService) }
        return .success(url)
    }

    /// `scheme://host[:port]`, lower case, without the scheme's default port: an endpoint's
    /// origin, the `aud` of its tokens; nil for a URL without scheme and host, or not http(s).
    public static func origin(of url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        return origin(components)
    }

    /// An origin as the operator wrote it (`--push-allow-endpoint https://push.example:8443`),
    /// written as `origin(of:)` writes one; nil when it is not one (a path, a query, a user).
    public static func origin(parsing text: String) -> String? {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
            components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else { return nil }
        return origin(components)
    }

    private static func origin(_ components: URLComponents) -> String? {
        guard let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        guard let port = components.port, port != defaultPort else { return "\(scheme)://\(bracketed)" }
        return "\(scheme)://\(bracketed):\(port)"
    }
}
