/// The 10,000 most common passwords (`CommonPasswords+List.swift`, made by
/// `scripts/make-common-passwords.py`): a password among them is refused whatever its length.
public enum CommonPasswords {
    /// Read once, at the first sign-up or password change.
    private static let set: Set<Substring> = Set(list.split(separator: "\n"))

    /// Whether `password`, ignoring case, is one of them.
    public static func contains(_ password: String) -> Bool {
        set.contains(Substring(password.lowercased()))
    }
}
