import Crypto
import Foundation
import SanghaPush

/// `sangha-bench push-cost [COUNT]`: the parts of one push, each through the app's own code in a
/// function of its own that callgrind counts inclusively (`scripts/bench-push.sh` runs it under
/// callgrind and divides by COUNT): `PushEncryption.encrypt`, all of it, and two of its steps
/// (the message's own key pair; the browser's key read and the ECDH with it); a VAPID signature
/// (one per push-service origin every eleven hours); and the `Authorization` header as each post
/// asks for it (the kept token).
enum PushCost {
    static func run(_ arguments: [String]) {
        let count = arguments.first.flatMap(Int.init) ?? 200
        let browser = P256.KeyAgreement.PrivateKey()
        let receiver = [UInt8](browser.publicKey.x963Representation)
        let auth = [UInt8](repeating: 7, count: 16)
        let payload = Array(
            #"{"title":"Zazen begins at 07:00","body":"Morning sangha","url":"/groups/1/sits/2","tag":"sit-2"}"#.utf8)
        let signing = P256.Signing.PrivateKey()
        let vapid = VAPID(privateKey: signing, contact: "mailto:ops@sangha.org")
        let endpoint = URL(string: "https://updates.push.services.mozilla.com/wpush/v2/abc")!
        var sink = 0
        for _ in 0..<count {
            let sender = pushCostKeyPair()
            sink &+= pushCostECDH(sender, receiver)
            sink &+= pushCostEncrypt(payload, receiver: receiver, auth: auth)
            sink &+= pushCostSignature(signing)
            sink &+= pushCostHeader(vapid, endpoint)
        }
        print("\(count) pushes' parts (\(sink % 10))")
    }
}

@inline(never) func pushCostKeyPair() -> P256.KeyAgreement.PrivateKey { PushEncryption.freshKey() }

@inline(never) func pushCostECDH(_ sender: P256.KeyAgreement.PrivateKey, _ receiver: [UInt8]) -> Int {
    let key = try! P256.KeyAgreement.PublicKey(x963Representation: receiver)
    return try! sender.sharedSecretFromKeyAgreement(with: key).withUnsafeBytes { Int($0[0]) }
}

@inline(never) func pushCostEncrypt(_ payload: [UInt8], receiver: [UInt8], auth: [UInt8]) -> Int {
    (try? PushEncryption.encrypt(payload, receiver: receiver, auth: auth))?.count ?? 0
}

@inline(never) func pushCostSignature(_ key: P256.Signing.PrivateKey) -> Int {
    VAPID.token(
        audience: "https://updates.push.services.mozilla.com", expires: Date() + VAPID.lifetime,
        subject: "mailto:ops@sangha.org", key: key
    ).utf8.count
}

@inline(never) func pushCostHeader(_ vapid: VAPID, _ endpoint: URL) -> Int {
    vapid.authorization(for: endpoint).utf8.count
}
