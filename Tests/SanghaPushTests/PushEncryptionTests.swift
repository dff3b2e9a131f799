import Crypto
import Foundation
import SanghaPush
import SanghaTokens
import Testing

/// RFC 8291's encryption: the RFC's own example byte for byte, and what a browser does to read
/// a message (its side written here from the RFC, apart from Sangha's).
@Suite("Web Push encryption (RFC 8291)")
struct PushEncryptionTests {
    /// RFC 8291, Appendix A.
    enum Example {
        static let plaintext = Array("When I grow up, I want to be a watermelon".utf8)
        static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let senderPublic =
            "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        static let receiverPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let receiverPublic =
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let body =
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    static func bytes(_ text: String) -> [UInt8] { Base64URL.decode(text)! }

    @Test("RFC 8291's example, with its keys and salt, is its message byte for byte")
    func appendixA() throws {
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(Example.senderPrivate))
        #expect(Base64URL.encode(sender.publicKey.x963Representation) == Example.senderPublic)
        let body = try PushEncryption.encrypt(
            Example.plaintext, receiver: Self.bytes(Example.receiverPublic), auth: Self.bytes(Example.auth),
            sender: sender, salt: Self.bytes(Example.salt))
        #expect(Base64URL.encode(body) == Example.body)
        #expect(body.count == 144)
    }

    @Test("The browser's side opens the RFC's message, and refuses it with any byte flipped")
    func browserSideOpensExample() throws {
        let receiver = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(Example.receiverPrivate))
        let body = Self.bytes(Example.body)
        #expect(try BrowserSide.decrypt(body, receiver: receiver, auth: Self.bytes(Example.auth)) == Example.plaintext)
        // The salt, the key's length, the key, the ciphertext, the tag. (The record size, bytes
        // 16–19, only bounds a record: a larger one still opens a message of one record.)
        for index in [0, 20, 30, 90, body.count - 1] {
            var flipped = body
            flipped[index] ^= 0x01
            #expect(throws: (any Error).self) {
                try BrowserSide.decrypt(flipped, receiver: receiver, auth: Self.bytes(Example.auth))
            }
        }
    }

    @Test("Each message has a key pair and a salt of its own, and the browser reads every one")
    func freshKeysPerMessage() throws {
        let receiver = P256.KeyAgreement.PrivateKey()
        let auth = (0..<16).map { UInt8($0 * 7) }
        let text = Array(#"{"title":"Morning sangha","body":"Zazen begins at 07:00"}"#.utf8)
        var headers = Set<[UInt8]>()
        for _ in 0..<20 {
            let body = try PushEncryption.encrypt(
                text, receiver: [UInt8](receiver.publicKey.x963Representation), auth: auth)
            headers.insert(Array(body[0..<86]))
            #expect(body.count == 86 + text.count + 1 + 16)
            #expect(Array(body[16..<20]) == [0, 0, 0x10, 0])  // rs 4096
            #expect(body[20] == 65)
            #expect(try BrowserSide.decrypt(body, receiver: receiver, auth: auth) == text)
        }
        #expect(headers.count == 20)
    }

    @Test(
        "A message's own key pair is a whole P-256 pair: its public half is its scalar times the generator, and ECDH agrees both ways"
    )
    func freshKey() throws {
        let browser = P256.KeyAgreement.PrivateKey()
        var scalars = Set<Data>()
        for _ in 0..<50 {
            let key = PushEncryption.freshKey()
            scalars.insert(key.rawRepresentation)
            // Made again from its scalar by swift-crypto: the same public point.
            let again = try P256.KeyAgreement.PrivateKey(rawRepresentation: key.rawRepresentation)
            #expect(again.publicKey.x963Representation == key.publicKey.x963Representation)
            #expect(key.publicKey.x963Representation.count == 65)
            let ours = try key.sharedSecretFromKeyAgreement(with: browser.publicKey)
            let theirs = try browser.sharedSecretFromKeyAgreement(with: key.publicKey)
            #expect(ours == theirs)
        }
        #expect(scalars.count == 50)
    }

    @Test("A bad browser key, a bad secret and a message past one record are refused")
    func refusals() {
        let receiver = [UInt8](P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        var offCurve = receiver
        offCurve[40] ^= 0xFF
        #expect(throws: PushEncryption.Failure.badKey) {
            try PushEncryption.encrypt([1], receiver: offCurve, auth: Array(repeating: 1, count: 16))
        }
        #expect(throws: PushEncryption.Failure.badAuth) {
            try PushEncryption.encrypt([1], receiver: receiver, auth: Array(repeating: 1, count: 15))
        }
        let long = Array(repeating: UInt8(65), count: PushEncryption.largestPlaintext + 1)
        #expect(throws: PushEncryption.Failure.tooLong(long.count)) {
            try PushEncryption.encrypt(long, receiver: receiver, auth: Array(repeating: 1, count: 16))
        }
        #expect(
            (try? PushEncryption.encrypt(
                Array(long.dropLast()), receiver: receiver, auth: Array(repeating: 1, count: 16)))?.count == 4096)
    }
}

/// What a browser does with a push message's body (RFC 8291 §3.4, RFC 8188 §2), written for the
/// tests from the RFCs, apart from `PushEncryption`.
enum BrowserSide {
    struct Unreadable: Error {}

    static func decrypt(_ body: [UInt8], receiver: P256.KeyAgreement.PrivateKey, auth: [UInt8]) throws -> [UInt8] {
        guard body.count > 86 else { throw Unreadable() }
        let salt = Array(body[0..<16])
        let recordSize = body[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let idLength = Int(body[20])
        guard recordSize >= 18, idLength == 65 else { throw Unreadable() }
        let senderPublic = Array(body[21..<(21 + idLength)])
        let sender = try P256.KeyAgreement.PublicKey(x963Representation: senderPublic)
        let secret = try receiver.sharedSecretFromKeyAgreement(with: sender)
        let info = Array("WebPush: info\0".utf8) + Array(receiver.publicKey.x963Representation) + senderPublic
        let ikm = secret.withUnsafeBytes {
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: $0), salt: auth, info: info, outputByteCount: 32)
        }
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: aes128gcm\0".utf8), outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: nonce\0".utf8), outputByteCount: 12)
        let record = Array(body[(21 + idLength)...])
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) }), ciphertext: record.dropLast(16),
            tag: record.suffix(16))
        var plain = try [UInt8](AES.GCM.open(box, using: key))
        while plain.last == 0 { plain.removeLast() }
        guard plain.last == 2 else { throw Unreadable() }
        plain.removeLast()
        return plain
    }
}
