import Foundation

/// A file a person previewed for import, kept on the server until they press "Import": the
/// preview page names it by a token (the storage keeps only the token's SHA-256), so the file
/// is not sent back to the browser and up again. One a person (a new preview replaces it), kept
/// an hour, forgotten once imported and with the account.
public enum PendingImport {
    /// How long a previewed file waits for "Import".
    public static let lifetime: TimeInterval = 3600
}
