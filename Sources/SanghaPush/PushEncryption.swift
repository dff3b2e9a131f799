import Crypto
import Foundation
import SanghaTokens

/// RFC 8291: a push message's payload encrypted for one browser's subscription, with the
/// `aes128gcm` content coding of RFC 8188 in one record.
///
/// Each message gets a key pair of its own and a random salt, so nothing links two messages
/// and no key of the server's ever meets the browser's; the browser finds the pair's public
/// half in the header (`keyid`).
public enum PushEncryption {
    /// The record size written in the header: one record holds the whole message (a push
    /// service takes at most 4,096 bytes of body).
    public static let recordSize: UInt32 = 4096
    /// The most plaintext one message carries: 4,096 less the header (86), the delimiter (1)
    /// and the tag (16).
    public static let largestPlaintext = 4096 - 86 - 1 - 16

    public enum Failure: Error, Equatable, Sendable {
        /// The subscription's `p256dh` is not a point on P-256.
        case badKey
        /// Its `auth` is not 16 bytes.
        case badAuth
        /// The message does not fit one record.
        case tooLong(Int)
    }

    /// `plaintext` encrypted for the browser whose public key is `receiver` (65 bytes, the
    /// uncompressed point) and authentication secret `auth` (16 bytes): the header (salt,
    /// record size, the sender's public key) and the one record, as the request's body.
    /// `sender` and `salt` are fresh for every message; the tests pass the RFC's.
    public static func encrypt(
        _ plaintext: some Collection<UInt8>, receiver: [UInt8], auth: [UInt8],
        sender: P256.KeyAgreement.PrivateKey = freshKey(), salt: [UInt8]? = nil
    ) throws(Failure) -> [UInt8] {
        guard plaintext.count <= largestPlaintext else { throw .tooLong(plaintext.count) }
        guard auth.count == 16 else { throw .badAuth }
        guard let receiverKey = try? P256.KeyAgreement.PublicKey(x963Representation: receiver) else { throw .badKey }
        let salt = salt ?? SecureRandom.bytes(16)
        let senderPublic = [UInt8](sender.publicKey.x963Representation)
        guard let shared = try? sender.sharedSecretFromKeyAgreement(with: receiverKey) else { throw .badKey }

        // IKM = HKDF(auth, ECDH, "WebPush: info" 0x00 ua_public as_public, 32) (RFC 8291 §3.4).
        var keyInfo = Array("WebPush: info".utf8)
        keyInfo.append(0)
        keyInfo += receiver
        keyInfo += senderPublic
        let ikm = shared.withUnsafeBytes { secret in
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: secret), salt: auth, info: keyInfo, outputByteCount: 32)
        }
        // Then RFC 8188's keys from the salt: the content key and the nonce.
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let contentKey = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)

        // The one record: the plaintext, then the last record's delimiter (2), no padding.
        var record = [UInt8]()
        record.reserveCapacity(plaintext.count + 1)
        record += plaintext
        record.append(2)
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try nonce.withUnsafeBytes { nonceBytes in
                try AES.GCM.seal(record, using: contentKey, nonce: try AES.GCM.Nonce(data: nonceBytes))
            }
        } catch {
            // A 16-byte key and a 12-byte nonce always seal.
            preconditionFailure("AES-GCM refused its key or nonce: \(error)")
        }

        var body = [UInt8]()
        body.reserveCapacity(86 + record.count + 16)
        body += salt
        body += withUnsafeBytes(of: recordSize.bigEndian, Array.init)
        body.append(UInt8(senderPublic.count))
        body += senderPublic
        body += sealed.ciphertext
        body += sealed.tag
        return body
    }

    /// A key pair for one message: 32 random bytes (the system's generator, `getrandom`) taken as
    /// its scalar, and its public half made by one multiplication. `P256.KeyAgreement.PrivateKey()`
    /// makes keys until one is "compact representable" (two on average) and checks each by a FIPS
    /// pairwise test (a signature made and verified): half of a push's instructions, for nothing
    /// a message needs. A scalar of zero or past the curve's order (one in 2³² draws) is refused
    /// by the key's own check, and drawn again.
    public static func freshKey() -> P256.KeyAgreement.PrivateKey {
        while true {
            if let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: SecureRandom.bytes(32)) { return key }
        }
    }
}
