import ArgumentParser
import Foundation

/// `sangha restore FILE`: a backup made by `sangha backup` put into an empty data folder.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: """
            Put a backup written by sangha backup into an empty data folder. \
            (With PostgreSQL, use pg_restore instead.)
            """,
        discussion: """
            FILE must be a sound SQLite database of Sangha's (PRAGMA integrity_check passes, and it has GRDB's \
            migrations and a person table), and the data folder must not hold sangha.sqlite or friends.sqlite \
            yet: restore never replaces data, so stop sangha serve and move the old files away first, or name \
            a new folder (it is created when missing).

            FILE is opened read-only and copied with SQLite's online backup API into the data folder's \
            sangha.sqlite, in WAL mode as sangha serve keeps it. When the backup's friends file is beside it \
            (FILE's name with .friends before its extension, as sangha backup writes it), it becomes \
            friends.sqlite, the embedded FriendService's friends lists. Each file is written under a temporary \
            name and takes its place only once SQLite's integrity check passes. Then start sangha serve on the \
            folder: it brings the schema of a backup made by an older version up to date.

            With PostgreSQL (--database-url), restore a pg_dump -Fc archive into an empty database with \
            pg_restore --no-owner --single-transaction -d DATABASE_URL sangha.dump instead.
            """
    )

    @Argument(help: "A backup written by sangha backup.")
    var file: String

    @Option(
        help: """
            The data folder to restore into; created when missing, and it must not hold Sangha's data yet. \
            (default: data; env: SANGHA_DATA_DIR)
            """)
    var dataDir: String?

    func run() async throws {
        try restore(.process)
    }

    /// Everything synchronous: GRDB's backup blocks its thread until the copy is whole.
    func restore(_ settings: SettingSource) throws {
        let file = URL(fileURLWithPath: self.file)
        let dataDirectory = settings.dataDirectory(dataDir)
        let sangha = dataDirectory.appendingPathComponent(SQLiteBackup.sanghaFileName)
        let friends = dataDirectory.appendingPathComponent(SQLiteBackup.friendsFileName)
        guard ![sangha, friends].contains(where: { DataFolder.isHeld($0.lastPathComponent, in: dataDirectory) }) else {
            throw BackupFailure(
                "sangha serve is running on \(dataDirectory.path): stop it before restoring into its folder.")
        }
        let present = [sangha, friends].filter(SQLiteBackup.exists).map(\.lastPathComponent)
        guard present.isEmpty else {
            throw BackupFailure(
                """
                \(dataDirectory.path) already holds Sangha's data (\(present.joined(separator: ", "))): restore \
                only fills an empty data folder. Name a new one with --data-dir, or stop sangha serve and move \
                those files away first.
                """)
        }
        if let problem = SQLiteBackup.problem(with: file, table: "person", what: "a backup of Sangha's data") {
            throw BackupFailure(problem)
        }
        var copies: [(source: URL, destination: URL)] = [(source: file, destination: sangha)]
        let friendsBackup = SQLiteBackup.friendsFile(beside: file)
        if FileManager.default.fileExists(atPath: friendsBackup.path) {
            if let problem = SQLiteBackup.problem(
                with: friendsBackup, table: "friend", what: "a backup of the FriendService's friends lists")
            {
                throw BackupFailure(problem)
            }
            copies.append((source: friendsBackup, destination: friends))
        }
        if settings.text("SANGHA_DATABASE_URL") != nil {
            FileHandle.standardError.write(
                Data(
                    """
                    Note: SANGHA_DATABASE_URL is set, so sangha serve here keeps its data in PostgreSQL, not in \
                    \(sangha.path). Restore a PostgreSQL backup with pg_restore.\n
                    """.utf8))
        }

        try DataFolder.makePrivate(dataDirectory)
        // Every file is copied whole under a name of its own before any takes its place, and a
        // failure takes away whatever this restore put there.
        var partials: [URL] = []
        var placed: [URL] = []
        do {
            for copy in copies {
                let source = try SQLiteBackup.openReadOnly(copy.source)
                defer { try? source.close() }
                let partial = SQLiteBackup.partialFile(for: copy.destination)
                partials.append(partial)
                try SQLiteBackup.copy(source, to: partial, journalMode: .wal)
            }
            for (copy, partial) in zip(copies, partials) {
                guard !SQLiteBackup.exists(copy.destination) else {
                    throw BackupFailure(
                        """
                        \(copy.destination.path) appeared while restoring (was sangha serve started on \
                        \(dataDirectory.path)?): nothing was restored over it.
                        """)
                }
                try FileManager.default.moveItem(at: partial, to: copy.destination)
                placed.append(copy.destination)
            }
        } catch {
            for url in partials + placed {
                try? FileManager.default.removeItem(at: url)
                SQLiteBackup.removeSidecars(of: url)
            }
            throw error
        }
        for copy in copies {
            let size = SQLiteBackup.sizeText(SQLiteBackup.size(of: copy.destination) ?? 0)
            print("Restored \(copy.source.path) into \(copy.destination.path), \(size).")
        }
        if copies.count == 1 {
            print("(No friends file beside the backup: the embedded FriendService starts with no friends lists.)")
        }
        print("Start sangha serve --data-dir \(dataDirectory.path) to serve it.")
    }
}
