import ArgumentParser
import Foundation

/// `sangha backup FILE`: a consistent copy of the SQLite data, taken while the server serves.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: """
            Write a consistent copy of the SQLite data to FILE, safely while sangha serve is running. \
            (With PostgreSQL, use pg_dump instead.)
            """,
        discussion: """
            The data folder's sangha.sqlite is copied with SQLite's online backup API, in one step inside one \
            read transaction: FILE holds the data as it was at one moment, every write committed before the copy \
            began and none after, while sangha serve goes on serving and writing (nothing waits for the copy). \
            The data folder is opened read-only: nothing in it is migrated or changed. FILE is one \
            self-contained SQLite file (no -wal beside it), written under a temporary name and put in place only \
            once SQLite's integrity check passes.

            When the data folder also holds friends.sqlite, the friends lists of the embedded FriendService \
            (which sangha serve runs unless --friend-service-url is given), it is copied the same way, right \
            after sangha.sqlite, to FILE's name with .friends before its extension: backup.sqlite gets \
            backup.friends.sqlite beside it (backup gets backup.friends). sangha restore FILE restores both.

            An existing FILE (or friends file) is never replaced without --force.

            With PostgreSQL (--database-url) the data is not in these files: back it up with \
            pg_dump -Fc -d "$SANGHA_DATABASE_URL" -f sangha.dump (also safe while serving), and restore it \
            with pg_restore into an empty database.
            """
    )

    @Argument(help: "The file to write the copy to; its folder must exist.")
    var file: String

    @Flag(help: "Replace FILE, and its friends file, when they exist.")
    var force: Bool = false

    @Option(help: "The data folder sangha serve uses, holding sangha.sqlite. (default: data; env: SANGHA_DATA_DIR)")
    var dataDir: String?

    func run() async throws {
        try backUp(.process)
    }

    /// Everything synchronous: GRDB's backup blocks its thread until the copy is whole.
    func backUp(_ settings: SettingSource) throws {
        let dataDirectory = settings.dataDirectory(dataDir)
        let sangha = dataDirectory.appendingPathComponent(SQLiteBackup.sanghaFileName)
        let friends = dataDirectory.appendingPathComponent(SQLiteBackup.friendsFileName)
        guard FileManager.default.fileExists(atPath: sangha.path) else {
            throw BackupFailure(
                """
                There is no \(SQLiteBackup.sanghaFileName) in \(dataDirectory.path): nothing to back up. \
                Name the data folder sangha serve uses with --data-dir (or SANGHA_DATA_DIR). With --database-url \
                the data is in PostgreSQL: back it up with pg_dump -Fc.
                """)
        }
        if settings.text("SANGHA_DATABASE_URL") != nil {
            FileHandle.standardError.write(
                Data(
                    """
                    Note: SANGHA_DATABASE_URL is set, so sangha serve here keeps its data in PostgreSQL: this copies \
                    only the SQLite files in \(dataDirectory.path). Back up PostgreSQL with pg_dump -Fc.\n
                    """.utf8))
        }
        let file = URL(fileURLWithPath: self.file)
        var copies: [(source: URL, destination: URL)] = [(source: sangha, destination: file)]
        if FileManager.default.fileExists(atPath: friends.path) {
            copies.append((source: friends, destination: SQLiteBackup.friendsFile(beside: file)))
        }

        let folder = file.deletingLastPathComponent()
        var folderIsDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &folderIsDirectory),
            folderIsDirectory.boolValue
        else {
            throw BackupFailure("The folder \(folder.path) does not exist: create it first.")
        }
        // The data's own files (and SQLite's beside them) are never a destination, --force or not.
        let live = Set(
            [sangha, friends].flatMap { data in
                ["", "-wal", "-shm", "-journal"].map { SQLiteBackup.resolved(URL(fileURLWithPath: data.path + $0)) }
            })
        for copy in copies {
            guard !live.contains(SQLiteBackup.resolved(copy.destination)) else {
                throw BackupFailure(
                    "\(copy.destination.path) is the data itself: write the backup to another file.")
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: copy.destination.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                throw BackupFailure("\(copy.destination.path) is a folder: name a file to write the backup to.")
            }
            // A journal or WAL left beside the name would be read into the copy: it counts as the file.
            guard !SQLiteBackup.exists(copy.destination) || force else {
                throw BackupFailure(
                    "\(copy.destination.path) already exists: pass --force to replace it, or name another file.")
            }
        }

        for copy in copies {
            let source = try SQLiteBackup.openReadOnly(copy.source)
            defer { try? source.close() }
            let partial = SQLiteBackup.partialFile(for: copy.destination)
            try SQLiteBackup.copy(source, to: partial, journalMode: .delete)
            do {
                if FileManager.default.fileExists(atPath: copy.destination.path) {
                    try FileManager.default.removeItem(at: copy.destination)
                }
                SQLiteBackup.removeSidecars(of: copy.destination)
                try FileManager.default.moveItem(at: partial, to: copy.destination)
            } catch {
                try? FileManager.default.removeItem(at: partial)
                throw BackupFailure("\(copy.destination.path) could not be written: \(error)")
            }
            let size = SQLiteBackup.sizeText(SQLiteBackup.size(of: copy.destination) ?? 0)
            print("Wrote \(copy.destination.path), \(size): a copy of \(copy.source.path).")
        }
    }
}
