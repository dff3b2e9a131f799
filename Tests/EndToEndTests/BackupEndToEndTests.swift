import Foundation
import SanghaStore
import SanghaTestSupport
import Synchronization
import Testing

/// `sangha backup` while the server serves and writes, and `sangha restore` into an empty data
/// folder, run as an operator runs them: the built binary, beside a running server.
@Suite("Backup and restore end to end", .serialized)
struct BackupEndToEndTests {
    @Test(
        "A backup taken while profiles are being created restores into an empty folder: the person signs in, every profile made before it began and the friends are there"
    )
    func backupWhileWriting() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-backup-live")
        let restored = try RepositoryPaths.temporaryDirectory("sangha-backup-restored")
        let backups = try RepositoryPaths.temporaryDirectory("sangha-backup-files")
        let stray = try RepositoryPaths.temporaryDirectory("sangha-backup-stray")
        defer {
            for folder in [data, restored, backups, stray] { try? FileManager.default.removeItem(at: folder) }
        }
        let server = try await Self.startServer(data)
        let browser = HTTPClient()
        try await browser.signUp(at: server.baseURL)
        // A friend in the embedded FriendService's friends.sqlite, which the backup takes too.
        let friend = try await browser.send(
            "POST", server.baseURL.appendingPathComponent("friends"),
            form: ["firstname": "Jane", "lastname": "Doe", "phonenumber": "+1 555 0100"])
        #expect(friend.status == 303)

        // Profiles are created one after another until the backup has finished.
        let profiles = server.baseURL.appendingPathComponent("profiles")
        let acknowledged = Mutex<[String]>([])
        let writing = Task {
            for index in 1...100_000 {
                guard !Task.isCancelled,
                    let made = try? await browser.send("POST", profiles, form: ["name": "Written \(index)"]),
                    made.status == 303
                else { return }
                acknowledged.withLock { $0.append("Written \(index)") }
            }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while acknowledged.withLock({ $0.count }) < 10, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        // Every profile acknowledged before the backup process starts must be in the backup.
        let beforeBackup = acknowledged.withLock { $0 }
        try #require(beforeBackup.count >= 10, "the writes did not start")

        let file = backups.appendingPathComponent("backup.sqlite")
        let friendsFile = backups.appendingPathComponent("backup.friends.sqlite")
        let backup = try await Self.sangha(["backup", file.path, "--data-dir", data.path])
        let writerStillRunning = acknowledged.withLock { $0.count } > beforeBackup.count
        writing.cancel()
        await writing.value
        #expect(backup.status == 0, "\(backup.output)")
        #expect(backup.output.contains(file.path), "\(backup.output)")
        #expect(backup.output.contains(friendsFile.path), "\(backup.output)")
        #expect(FileManager.default.fileExists(atPath: friendsFile.path))
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"), "the backup is one file")
        #expect(await server.stop() == 0)
        // Not a condition of the test (a fast copy may finish between two writes), but a note of it.
        if !writerStillRunning { print("Note: no profile was acknowledged while the backup ran.") }

        let restore = try await Self.sangha(["restore", file.path, "--data-dir", restored.path])
        #expect(restore.status == 0, "\(restore.output)")
        #expect(FileManager.default.fileExists(atPath: restored.appendingPathComponent("sangha.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: restored.appendingPathComponent("friends.sqlite").path))

        let again = try await Self.startServer(restored)
        defer { again.stopInBackground() }
        let person = HTTPClient()
        let signIn = try await person.signIn(at: again.baseURL)
        #expect(signIn.status == 303)
        #expect(person.cookie(named: "sangha_session") != nil)
        let names = try await Self.profileNames(at: again.baseURL, client: person)
        #expect(
            Set(beforeBackup).isSubset(of: names), "lost: \(Set(beforeBackup).subtracting(names).sorted())")
        #expect(names.count >= beforeBackup.count)
        let friends = try await person.send("GET", again.baseURL.appendingPathComponent("friends"))
        #expect(friends.status == 200)
        #expect(friends.body.contains("Jane Doe"))

        // The friends file is a SQLite database, but not Sangha's: restore refuses it.
        let wrong = try await Self.sangha(["restore", friendsFile.path, "--data-dir", stray.path])
        #expect(wrong.status != 0)
        #expect(wrong.output.contains("no person table"), "\(wrong.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: stray.path).isEmpty)
    }

    @Test("restore refuses a data folder that already holds sangha.sqlite, and a file that is not a database")
    func restoreRefuses() async throws {
        let source = try RepositoryPaths.temporaryDirectory("sangha-restore-source")
        let target = try RepositoryPaths.temporaryDirectory("sangha-restore-target")
        let empty = try RepositoryPaths.temporaryDirectory("sangha-restore-empty")
        let backups = try RepositoryPaths.temporaryDirectory("sangha-restore-files")
        defer {
            for folder in [source, target, empty, backups] { try? FileManager.default.removeItem(at: folder) }
        }
        // A data folder as a server leaves it (no server is running: backup works on one at rest too).
        _ = try SanghaDatabase.open(directory: source)
        let file = backups.appendingPathComponent("backup.sqlite")
        let backup = try await Self.sangha(["backup", file.path, "--data-dir", source.path])
        #expect(backup.status == 0, "\(backup.output)")
        let restore = try await Self.sangha(["restore", file.path, "--data-dir", target.path])
        #expect(restore.status == 0, "\(restore.output)")

        // Again into the folder that now holds sangha.sqlite: refused, the folder unchanged.
        let before = try FileManager.default.contentsOfDirectory(atPath: target.path).sorted()
        let written = try Data(contentsOf: target.appendingPathComponent("sangha.sqlite"))
        let full = try await Self.sangha(["restore", file.path, "--data-dir", target.path])
        #expect(full.status != 0)
        #expect(full.output.contains("already holds Sangha's data (sangha.sqlite)"), "\(full.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).sorted() == before)
        #expect(try Data(contentsOf: target.appendingPathComponent("sangha.sqlite")) == written)

        // A file that is not a database at all: refused, nothing written.
        let text = backups.appendingPathComponent("notes.sqlite")
        try Data("These are notes, not a database.\n".utf8).write(to: text)
        let notDatabase = try await Self.sangha(["restore", text.path, "--data-dir", empty.path])
        #expect(notDatabase.status != 0)
        #expect(notDatabase.output.contains("is not a SQLite database"), "\(notDatabase.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)

        // A file that is not there.
        let missing = try await Self.sangha(
            ["restore", backups.appendingPathComponent("missing.sqlite").path, "--data-dir", empty.path])
        #expect(missing.status != 0)
        #expect(missing.output.contains("does not exist"), "\(missing.output)")
    }

    @Test("backup refuses to replace an existing file unless --force; --help names pg_dump")
    func backupRefusesExistingFile() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-backup-existing")
        let backups = try RepositoryPaths.temporaryDirectory("sangha-backup-existing-files")
        defer {
            for folder in [data, backups] { try? FileManager.default.removeItem(at: folder) }
        }
        _ = try SanghaDatabase.open(directory: data)
        let file = backups.appendingPathComponent("backup.sqlite")
        let kept = Data("Something worth keeping.\n".utf8)
        try kept.write(to: file)

        let refused = try await Self.sangha(["backup", file.path, "--data-dir", data.path])
        #expect(refused.status != 0)
        #expect(refused.output.contains("already exists"), "\(refused.output)")
        #expect(refused.output.contains("--force"), "\(refused.output)")
        #expect(try Data(contentsOf: file) == kept)
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path) == ["backup.sqlite"])

        let forced = try await Self.sangha(["backup", file.path, "--data-dir", data.path, "--force"])
        #expect(forced.status == 0, "\(forced.output)")
        #expect(try Data(contentsOf: file).prefix(16) == Data("SQLite format 3\u{0}".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path) == ["backup.sqlite"])

        // Nothing to back up: a folder without sangha.sqlite.
        let nothing = try await Self.sangha(
            ["backup", backups.appendingPathComponent("other.sqlite").path, "--data-dir", backups.path])
        #expect(nothing.status != 0)
        #expect(nothing.output.contains("nothing to back up"), "\(nothing.output)")

        // The help is wrapped to the terminal's width: its words are compared, not its lines.
        let backupHelp = try await Self.sangha(["backup", "--help"])
        let backupWords = backupHelp.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(backupHelp.status == 0)
        #expect(backupWords.contains("safely while sangha serve is running"), "\(backupHelp.output)")
        #expect(backupWords.contains("pg_dump"), "\(backupHelp.output)")
        let restoreHelp = try await Self.sangha(["restore", "--help"])
        #expect(restoreHelp.status == 0)
        #expect(restoreHelp.output.contains("pg_restore"), "\(restoreHelp.output)")
    }

    static func startServer(_ data: URL) async throws -> SanghaProcess {
        try await SanghaProcess.serve(
            dataDirectory: data,
            [
                "--friend-service-port", "\(try SilentServer.freePort())", "--sign-up", "open", "--address-limit", "0",
                "--log-level", "warning",
            ])
    }

    /// `sangha <arguments>` to its end (waited for off the cooperative pool, which the writes
    /// running beside it need).
    static func sangha(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await SanghaProcess.run(arguments)
    }

    /// Every profile's name on every page of the list, as its JSON gives them.
    static func profileNames(at baseURL: URL, client: HTTPClient) async throws -> Set<String> {
        var names = Set<String>()
        for page in 1...1000 {
            let response = try await client.send(
                "GET", URL(string: "\(baseURL.absoluteString)/profiles?page=\(page)")!,
                headers: ["Accept": "application/json"])
            guard response.status == 200 else { break }
            let rows = try JSONDecoder().decode(ProfileRows.self, from: Data(response.body.utf8)).rows
            guard !rows.isEmpty else { break }
            names.formUnion(rows.map(\.name))
        }
        return names
    }

    struct ProfileRows: Decodable {
        struct Row: Decodable { let name: String }
        let rows: [Row]
    }
}

/// The data folder holds password hashes and the cookie secret, and one process's memory of them.
@Suite("The data folder end to end", .serialized)
struct DataFolderEndToEndTests {
    @Test(
        "The data folder, its files and backups are the user's alone whatever the umask, a second serve on it refuses to start saying why, and restore refuses it while it is served"
    )
    func privateAndHeld() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-folder-data")
        let backups = try RepositoryPaths.temporaryDirectory("sangha-folder-backups")
        defer {
            for folder in [data, backups] { try? FileManager.default.removeItem(at: folder) }
        }
        // A folder as an older version, or a hand, made it: open to every local user.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: data.path)
        let server = try await BackupEndToEndTests.startServer(data)
        defer { server.stopInBackground() }
        try await HTTPClient().signUp(at: server.baseURL)

        #expect(try Self.mode(data) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: data.path)
        for name in ["sangha.sqlite", "sangha.sqlite-wal", "friends.sqlite"] {
            #expect(files.contains(name), "\(files)")
        }
        for name in files {
            #expect(try Self.mode(data.appendingPathComponent(name)) == 0o600, "\(name)")
        }

        let second = try await SanghaProcess.run([
            "serve", "--data-dir", data.path, "--port", "\(try SilentServer.freePort())",
            "--friend-service-port", "\(try SilentServer.freePort())",
        ])
        #expect(second.status != 0)
        #expect(
            second.output.contains("is already serving sangha.sqlite in the data folder \(data.path)"),
            "\(second.output)")
        #expect(second.output.contains("--data-dir"), "\(second.output)")
        // The first still serves.
        #expect(try await HTTPClient().send("GET", server.baseURL.appendingPathComponent("health")).status == 200)

        let file = backups.appendingPathComponent("backup.sqlite")
        let backup = try await SanghaProcess.run(["backup", file.path, "--data-dir", data.path])
        #expect(backup.status == 0, "\(backup.output)")
        #expect(try Self.mode(file) == 0o600)

        let restore = try await SanghaProcess.run(["restore", file.path, "--data-dir", data.path])
        #expect(restore.status != 0)
        #expect(restore.output.contains("sangha serve is running on \(data.path)"), "\(restore.output)")
    }

    static func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }
}
