/// The 10,000 most common passwords (`Resources/common-passwords.txt`, one a line, lower-case,
/// most common first, made by `scripts/make-common-passwords.py`): a password among them is
/// refused whatever its length.
public enum CommonPasswords {
    /// Read once, at the first sign-up or password change.
    private static let set: Set<Substring> = Set(
        String(decoding: PackageResources.common_passwords_txt, as: UTF8.self).split(separator: "\n"))

    /// Whether `password`, ignoring case, is one of them.
    public static func contains(_ password: String) -> Bool {
        set.contains(Substring(password.lowercased()))
    }
}
