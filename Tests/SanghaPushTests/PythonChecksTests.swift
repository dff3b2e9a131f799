import Crypto
import Foundation
import SanghaPush
import SanghaTestSupport
import SanghaTokens
import Testing

/// Python's `http_ece` and `cryptography` (the browser tests' virtual environment, which `make
/// test` makes first) check what Sangha makes: they share no code with it. Skipped where the
/// environment is missing; with `CI=true` they run, and fail without it.
@Suite("Web Push checked by independent code", .enabled(if: IndependentChecks.runs))
struct PythonChecksTests {
    @Test("http_ece decrypts 20 random messages and refuses each with a flipped byte; cryptography verifies VAPID")
    func independent() async throws {
        var messages: [[String: Any]] = []
        var generator = SystemRandomNumberGenerator()
        for index in 0..<20 {
            let receiver = P256.KeyAgreement.PrivateKey()
            let auth = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = (0..<(1 + index * 97 % 3000)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let body = try PushEncryption.encrypt(
                text, receiver: [UInt8](receiver.publicKey.x963Representation), auth: auth)
            messages.append([
                "private": Base64URL.encode(receiver.rawRepresentation), "auth": Base64URL.encode(auth),
                "plaintext": Base64URL.encode(text), "body": Base64URL.encode(body),
                // Any byte but the record size's (16 to 19): a larger record size still holds the
                // one record, so http_ece rightly opens a message with one of those flipped.
                "flip": [Int](0..<body.count).filter { !(16...19).contains($0) }.randomElement(using: &generator) ?? 0,
            ])
        }
        let vapid = VAPID(privateKey: .init(), contact: "mailto:ops@sangha.org")
        let checks: [[String: Any]] = [
            "https://fcm.googleapis.com/fcm/send/abc", "https://updates.push.services.mozilla.com/wpush/v2/x",
            "http://127.0.0.1:9000/push/7",
        ].map { endpoint in
            let url = URL(string: endpoint)!
            return [
                "header": vapid.authorization(for: url), "aud": PushEndpoints.origin(of: url)!,
                "sub": "mailto:ops@sangha.org", "publicKey": vapid.publicKeyText,
            ]
        }
        let input = try JSONSerialization.data(withJSONObject: ["messages": messages, "vapid": checks])
        let (status, output) = try await IndependentChecks.run(input)
        #expect(status == 0, "\(output)")
        #expect(output.contains("decrypted 20 messages"))
        #expect(output.contains("verified 3 VAPID headers"))
    }
}

enum IndependentChecks {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let python = root.appendingPathComponent(".venv/bin/python3")
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("independent_checks.py")

    /// The environment is there with http_ece, or `CI=true` says it must be.
    static var runs: Bool {
        ProcessInfo.processInfo.environment["CI"] == "true"
            || FileManager.default.fileExists(
                atPath: root.appendingPathComponent(".venv/lib/python3.11/site-packages/http_ece").path)
            || ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(".venv/lib").path))?
                .contains {
                    FileManager.default.fileExists(atPath: root.path + "/.venv/lib/\($0)/site-packages/http_ece")
                }
                ?? false)
    }

    /// The script's exit status and what it printed, fed `input`.
    static func run(_ input: Data) async throws -> (Int32, String) {
        try await offThePool {
            let process = Process()
            process.executableURL = python
            process.arguments = [script.path]
            let stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = stdout
            try process.run()
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
            let output = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self))
        }
    }
}
