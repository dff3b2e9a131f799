import Crypto
import Foundation
import Hummingbird
import SanghaCore
import SanghaTokens
import SanghaViewModels

/// Signs what Sangha keeps in cookies with the deployment's secret (HMAC-SHA256), so a browser,
/// or anyone who can plant a cookie, cannot make one up: the flash, the device cookie, and the
/// form token bound to the session. The secret is kept in the database, the same for every
/// instance (`PeopleRepository.cookieSecret`).
public struct CookieSigner: Sendable {
    /// HMAC-SHA256 keyed with the secret, before any message: every page signs its form token,
    /// and each signature starts from a copy of it rather than from the key again.
    private let keyed: HMAC<SHA256>
    /// The form tokens made lately, by browser nonce and session: every page of a signed-in
    /// person carries one, the same on each of their pages, and signing it was 6 % of the
    /// editor's instructions (26 k). A token is a function of its nonce and session (and this
    /// signer's secret, which the cache belongs to), so a kept one is never stale.
    private let formTokens = KeptValues<FormTokenKey, String>(limit: 10_000)

    private struct FormTokenKey: Hashable, Sendable {
        let nonce: String
        let session: String?
    }

    public init(secret: [UInt8]) {
        self.init(key: SymmetricKey(data: secret))
    }

    private init(key: SymmetricKey) {
        keyed = HMAC<SHA256>(key: key)
    }

    /// A signer with a secret of its own (tests, tools).
    public static func random() -> CookieSigner { CookieSigner(key: SymmetricKey(size: .bits256)) }

    /// The signature of `value` for `purpose` (a flash signature is no device cookie's): hex.
    func signature(_ value: String, for purpose: String) -> String {
        var mac = keyed
        mac.update(data: Array(purpose.utf8))
        mac.update(data: [UInt8(ascii: ":")])
        mac.update(data: Array(value.utf8))
        return SecretToken.hex(mac.finalize())
    }

    /// `value.signature`.
    func signed(_ value: String, for purpose: String) -> String {
        "\(value).\(signature(value, for: purpose))"
    }

    /// The value of `signed` when its signature is right.
    func verified(_ signed: String, for purpose: String) -> String? {
        guard let dot = signed.lastIndex(of: ".") else { return nil }
        let value = String(signed[..<dot])
        let signature = String(signed[signed.index(after: dot)...])
        return ConstantTime.equal(signature, self.signature(value, for: purpose)) ? value : nil
    }

    /// The form token of a page: the browser's CSRF nonce bound to its sign-in session (when it
    /// has one), so a token is good only with the session it was made for; a planted nonce
    /// cookie gets the attacker nothing.
    ///
    /// `keep`: false for a nonce made for this response (a browser that sent no nonce cookie, a
    /// health check, a first visit), which may never come back: keeping its token would only push
    /// out the tokens of the browsers that do.
    func formToken(nonce: String, session key: String?, keep: Bool = true) -> String {
        guard keep else { return signature("\(nonce):\(key ?? "")", for: "form") }
        return formTokens.value(for: FormTokenKey(nonce: nonce, session: key)) {
            signature("\(nonce):\(key ?? "")", for: "form")
        }
    }

    /// Form tokens kept.
    var keptFormTokens: Int { formTokens.count }
}

/// The device cookie: once a browser has signed in to an account (or created it), it carries
/// `username.nonce.signature`, and sign-ins to that account from it are blocked neither by the
/// username's failures nor by its address's (OWASP's device cookies).
enum DeviceCookie {
    static let name = "sangha_device"
    static let maxAge = 365 * 86_400

    static func cookie(for username: String, signer: CookieSigner, jar: CookieJar) -> Cookie {
        let value = signer.signed("\(username.lowercased()).\(SecretToken.make().prefix(32))", for: "device")
        return jar.cookie(name, value: value, maxAge: maxAge)
    }

    /// The account and nonce of a device cookie's value, when it is signed.
    static func device(from value: String, signer: CookieSigner) -> Requester.Device? {
        guard value.utf8.count < 200, let signed = signer.verified(value, for: "device")
        else { return nil }
        let parts = signed.split(separator: ".")
        guard parts.count == 2 else { return nil }
        return Requester.Device(username: String(parts[0]), nonce: String(parts[1]))
    }
}
