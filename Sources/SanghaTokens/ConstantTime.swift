/// Comparing a secret someone sent with the one expected (a form token, a cookie's signature, an
/// OpenID `state` or `nonce`) without stopping at the first difference, so the time it takes does
/// not tell how much of a guess was right.
public enum ConstantTime {
    /// Whether `a` and `b` are the same bytes. Only their lengths may show in the time taken,
    /// and every secret compared so has a fixed length.
    public static func equal(_ a: String, _ b: String) -> Bool {
        let (left, right) = (Array(a.utf8), Array(b.utf8))
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
