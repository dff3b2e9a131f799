import ExtrasBase64

/// base64url without padding (RFC 4648 §5): how JOSE and PKCE write bytes in text, and how
/// Sangha's cookies carry JSON. ExtrasBase64 does the work (already built for hummingbird-auth and
/// jwt-kit), so no target writes the alphabet or the padding rule by hand.
public enum Base64URL {
    /// `bytes` in the URL-safe alphabet, without `=`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64.encodeToString(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// The bytes `text` encodes, with or without its padding; nil when it is not base64url (the
    /// standard alphabet's `+` and `/` included).
    public static func decode(_ text: String) -> [UInt8]? {
        try? Base64.decode(string: text, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }
}
