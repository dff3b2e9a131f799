import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The data folder `sangha serve` and `sangha friend-service` keep their SQLite files in. It holds
/// password hashes and the cookie secret: only the user who runs Sangha may read it (the folder
/// 0700, its files 0600, whatever the umask; a folder made by an older version is narrowed when
/// opened). And one process serves each of its databases at a time: a second `serve` would keep
/// its own memory of sign-in sessions and profiles, so a sign-out on one would not count on the
/// other. (`serve` and a `friend-service` may share a folder: they hold different files.)
enum DataFolder {
    /// The lock beside `file`, held by the process that serves it.
    static func lockFile(of file: String, in url: URL) -> URL {
        url.appendingPathComponent(file + ".lock")
    }

    /// Makes `url` private (creating it when missing) and holds its `file` until the process
    /// ends (the kernel lets go of the lock however it ends, even by `kill -9`), or throws,
    /// saying why, when another process holds it. The lock file says which process holds it and,
    /// when given, the `address` it serves on (`sangha people` prints its links with it).
    static func hold(_ file: String, in url: URL, for command: String, address: String? = nil) throws {
        try Self.makePrivate(url)
        let lockPath = lockFile(of: file, in: url).path
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DataFolderFailure("\(lockPath) could not be opened: \(String(cString: strerror(errno))).")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: lockPath, encoding: .utf8))?
                .split(separator: "\n").first.map(String.init)
            close(descriptor)
            throw DataFolderFailure(
                """
                Another Sangha process\(holder.map { " (process \($0))" } ?? "") is already serving \(file) in the \
                data folder \(url.path). One \(command) at a time may use it: stop the other first, or name \
                another folder with --data-dir.
                """)
        }
        ftruncate(descriptor, 0)
        let holder = "\(getpid())\n" + (address.map { "\($0)\n" } ?? "")
        _ = holder.withCString { write(descriptor, $0, strlen($0)) }
        // The descriptor stays open, and the lock held, for the rest of the process.
    }

    /// Whether a running `sangha serve` or `friend-service` holds `file` in `url` now.
    static func isHeld(_ file: String, in url: URL) -> Bool {
        let descriptor = open(lockFile(of: file, in: url).path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) != 0
    }

    /// The address the process holding `file` in `url` serves on, while one holds it.
    static func servingAddress(of file: String, in url: URL) -> String? {
        guard isHeld(file, in: url),
            let text = try? String(contentsOf: lockFile(of: file, in: url), encoding: .utf8)
        else { return nil }
        let lines = text.split(separator: "\n")
        return lines.count > 1 ? String(lines[1]) : nil
    }

    /// Creates `url` when missing, and narrows it to 0700 and the files in it to 0600. Files made
    /// later (SQLite's `-wal` and `-shm` beside each file) follow the umask `Sangha` sets.
    static func makePrivate(_ url: URL) throws {
        let files = FileManager.default
        try files.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try? files.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        for name in (try? files.contentsOfDirectory(atPath: url.path)) ?? [] {
            let path = url.appendingPathComponent(name).path
            var isFolder: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            try? files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        }
    }
}

/// A data folder that cannot be used, with why: `sangha` prints it after "Error: ".
struct DataFolderFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
