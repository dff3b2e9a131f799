import Foundation
import FriendServiceServer
import GRDB
import SanghaStore

/// What `sangha backup` and `sangha restore` share: the SQLite files of a data folder, where a
/// backup keeps them, and SQLite's online backup from one file into a new one.
enum SQLiteBackup {
    /// Sangha's own file in the data folder (`SanghaDatabase`).
    static let sanghaFileName = SanghaDatabase.fileName
    /// The embedded FriendService's file in the same folder.
    static let friendsFileName = FriendStore.fileName

    /// Where a backup keeps the friends lists beside `file`: `.friends` before its extension
    /// (`backup.sqlite` → `backup.friends.sqlite`; `backup` → `backup.friends`).
    static func friendsFile(beside file: URL) -> URL {
        let fileExtension = file.pathExtension
        let friends = file.deletingPathExtension().appendingPathExtension("friends")
        return fileExtension.isEmpty ? friends : friends.appendingPathExtension(fileExtension)
    }

    /// How the copy's journal is left: a backup is one self-contained file (`delete`), a
    /// restored data file is in WAL mode, as `sangha serve` keeps it (`wal`).
    enum JournalMode: String {
        case delete
        case wal
    }

    /// Opens `url` read-only, so nothing in it changes: no migration, no checkpoint. A read
    /// waits up to 10 s for a lock it needs (in WAL mode readers are almost never kept waiting).
    static func openReadOnly(_ url: URL) throws -> DatabaseQueue {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    /// Copies `source` into a new file at `destination` with SQLite's online backup, in one step
    /// inside one read transaction of `source`: the copy is the database as it was at one moment,
    /// whatever is written to it meanwhile by other connections or processes, and nothing waits
    /// for it. The copy is left in `journalMode`, checked with `PRAGMA integrity_check` and
    /// closed (in WAL mode, closing the last connection folds the WAL into the file and removes
    /// it). On failure nothing is left at `destination`.
    static func copy(_ source: DatabaseQueue, to destination: URL, journalMode: JournalMode) throws {
        do {
            let target = try DatabaseQueue(path: destination.path)
            do {
                try source.backup(to: target)
                try target.writeWithoutTransaction { db in
                    // The copied first page keeps the source's journal mode (a live
                    // sangha.sqlite is in WAL mode): set the one wanted.
                    let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = \(journalMode.rawValue)")
                    guard mode?.lowercased() == journalMode.rawValue else {
                        throw BackupFailure(
                            "\(destination.path) could not be put in \(journalMode.rawValue) journal mode "
                                + "(it is \(mode ?? "unknown")).")
                    }
                }
                let check = try target.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
                guard check == ["ok"] else {
                    let problems = check.prefix(5).joined(separator: "; ")
                    throw BackupFailure("The copy in \(destination.path) failed SQLite's integrity check: \(problems)")
                }
            } catch {
                try? target.close()
                throw error
            }
            try target.close()
            // A closed copy has no WAL left; one that is not empty would hold data the file lacks.
            let leftWAL = size(of: URL(fileURLWithPath: destination.path + "-wal")) ?? 0
            guard leftWAL == 0 else {
                throw BackupFailure("\(destination.path)-wal was left behind with data in it; the copy is not whole.")
            }
            removeSidecars(of: destination)
        } catch {
            try? FileManager.default.removeItem(at: destination)
            removeSidecars(of: destination)
            throw error
        }
    }

    /// Why `url` is not a sound SQLite database holding GRDB's migrations and `table`, or nil
    /// when it is. Opened read-only; a file that is not SQLite is told from its first bytes.
    static func problem(with url: URL, table: String, what: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return "\(url.path) does not exist."
        }
        guard !isDirectory.boolValue else { return "\(url.path) is a folder, not a backup file." }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            let header = try handle.read(upToCount: 16) ?? Data()
            guard header == Data("SQLite format 3\u{0}".utf8) else {
                return "\(url.path) is not a SQLite database, so not \(what)."
            }
        } catch {
            return "\(url.path) cannot be read: \(error)"
        }
        do {
            let database = try openReadOnly(url)
            defer { try? database.close() }
            return try database.read { db -> String? in
                let check = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard check == ["ok"] else {
                    let problems = check.prefix(5).joined(separator: "; ")
                    return "\(url.path) is damaged (SQLite's integrity check: \(problems))."
                }
                guard try db.tableExists("grdb_migrations"), try db.tableExists(table) else {
                    return "\(url.path) is a SQLite database, but not \(what) (it has no \(table) table)."
                }
                return nil
            }
        } catch {
            return "\(url.path) cannot be opened as a SQLite database: \(error)"
        }
    }

    /// The size of the file at `url` in bytes, or nil when there is none.
    static func size(of url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
    }

    /// `45056 bytes (44 KB)`.
    static func sizeText(_ bytes: Int) -> String {
        "\(bytes) bytes (\(ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)))"
    }

    /// Whether any of SQLite's files for `file` (itself, its WAL, its rollback journal) exists.
    static func exists(_ file: URL) -> Bool {
        ["", "-wal", "-journal"].contains { FileManager.default.fileExists(atPath: file.path + $0) }
    }

    /// Removes what SQLite may leave beside a closed database file: its WAL, its shared-memory
    /// index and its rollback journal.
    static func removeSidecars(of file: URL) {
        for suffix in ["-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: file.path + suffix)
        }
    }

    /// A name for a file being written beside `file` until it is whole, hidden and unique.
    static func partialFile(for file: URL) -> URL {
        file.deletingLastPathComponent()
            .appendingPathComponent(".\(file.lastPathComponent).partial-\(UUID().uuidString)")
    }

    /// `url` made absolute, with `.`, `..` and symbolic links resolved, for comparing paths.
    static func resolved(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// A backup or restore that cannot be done, with why: `sangha` prints it after "Error: " and
/// exits with status 1.
struct BackupFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
