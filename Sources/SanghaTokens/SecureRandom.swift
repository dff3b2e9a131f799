/// Random bytes for a secret (a token, a nonce, a key, a salt), from the system's generator
/// (`getrandom` on Linux), written once for every target that makes one.
public enum SecureRandom {
    /// `count` random bytes, eight from each call to the system's generator: asking it for one
    /// byte at a time (`UInt8.random(in:using:)`) cost a system call a byte, 48 a push.
    public static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var offset = 0
            while offset < count {
                let word = generator.next()
                let taken = min(8, count - offset)
                withUnsafeBytes(of: word) { word in
                    for index in 0..<taken { buffer[offset + index] = word[index] }
                }
                offset += taken
            }
            initialized = count
        }
    }
}
