import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL server of a test's own, started by `scripts/test-postgres.sh` in a temporary
/// folder on a free loopback port, so the test may stop and start it (`halt`, `resume`) without
/// disturbing the server the other tests share. Removed by `stop()`.
public final class TestPostgresServer: Sendable {
    public let directory: URL
    /// `postgres://postgres@127.0.0.1:PORT/postgres`
    public let url: String

    /// Whether the tests that need one run: it can start here, or `CI=true` says it must (and
    /// they fail without it). Elsewhere they are skipped, and shown as such.
    public static var runs: Bool {
        isAvailable || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    /// Whether this machine can start one: PostgreSQL's `initdb` is installed.
    public static var isAvailable: Bool {
        let candidates =
            ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .map { "/usr/lib/postgresql/\($0)/bin/initdb" }
        return candidates.contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public static func start() async throws -> TestPostgresServer {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("sangha-postgres-e2e-\(UUID().uuidString.prefix(8))")
        try await script("start", directory)
        let port = try String(contentsOf: directory.appendingPathComponent("port"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return TestPostgresServer(directory: directory, url: "postgres://postgres@127.0.0.1:\(port)/postgres")
    }

    private init(directory: URL, url: String) {
        self.directory = directory
        self.url = url
    }

    /// Stops the server (a fast shutdown), keeping its data.
    public func halt() async throws { try await Self.script("halt", directory) }

    /// Starts it again on the same port.
    public func resume() async throws { try await Self.script("resume", directory) }

    /// Stops it and removes its folder.
    public func stop() async throws { try await Self.script("stop", directory) }

    /// Runs the script to its end. Spawned directly, its output to a file and waited for on a
    /// thread of its own: the server it starts outlives it, and must hold no pipe the test waits
    /// on nor block the test's threads.
    private static func script(_ command: String, _ directory: URL) async throws {
        let script = RepositoryPaths.root.appendingPathComponent("scripts/test-postgres.sh").path
        let log = NSTemporaryDirectory() + "sangha-postgres-\(command)-\(UUID().uuidString.prefix(8)).log"
        let status = try await ChildProcess.run(["/bin/sh", script, command, directory.path], output: log)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: log)
        guard status == 0 else {
            throw SanghaProcessError("test-postgres.sh \(command) failed with status \(status):\n\(output)")
        }
    }
}

/// A command run with `posix_spawn` and reaped with `waitpid` on a dispatch thread.
public enum ChildProcess {
    /// Runs `arguments` (the first an absolute path) with standard output and error to the file
    /// `output`, standard input from /dev/null; answers the exit status.
    public static func run(_ arguments: [String], output: String) async throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test process: a server it starts would keep the tests' sockets.
        // (glibc 2.34's closefrom action; Swift's Glibc module does not declare it.)
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw SanghaProcessError("could not start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        let child = pid
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var status: Int32 = 0
                while waitpid(child, &status, 0) == -1, errno == EINTR {}
                // WIFEXITED / WEXITSTATUS
                let exited = status & 0x7f == 0
                continuation.resume(returning: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f))
            }
        }
    }
}

extension TestPostgresServer {
    /// Runs `body` with a server of its own, stopped and removed afterwards whatever happens.
    /// Where none can start (`CI=true` without PostgreSQL) the test fails.
    public static func with(_ body: (TestPostgresServer) async throws -> Void) async throws {
        guard isAvailable else {
            // Only with CI=true: elsewhere the suites that need one are not enabled (`runs`).
            throw SanghaProcessError("PostgreSQL is not installed (make test installs it)")
        }
        let server = try await start()
        do {
            try await body(server)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }
}
