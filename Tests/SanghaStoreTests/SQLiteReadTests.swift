import Dispatch
import Foundation
import GRDB
import SanghaTestSupport
import Testing

@testable import SanghaStore

/// How the stores read SQLite (`DatabaseReader.readInline` and `readAside`).
@Suite("SQLite reads")
struct SQLiteReadTests {
    /// The deadlock GRDB's `async` read allows: it gives its reader back only once its task
    /// resumes on the cooperative pool, so with every reader held that way and every cooperative
    /// thread waiting in a synchronous read, nothing moves. Here one reader is held by a long
    /// read and more page reads than the pool has threads wait for it, while this test holds a
    /// thread of its own; every read must end once the long one does.
    @Test("A page's read that waits for a reader held by a long read gets it, with every cooperative thread waiting")
    func inlineReadsWaitForLongOnes() async throws {
        let directory = try RepositoryPaths.temporaryDirectory("sqlite-reads")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        let pool = try DatabasePool(
            path: directory.appendingPathComponent("reads.sqlite").path, configuration: configuration)
        let held = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)

        let long = Task {
            try await pool.readAside { db in
                held.signal()
                gate.wait()
                return try Int.fetchOne(db, sql: "SELECT 1") ?? 0
            }
        }
        #expect(Self.wait(for: held, seconds: 30), "the long read took the reader")
        let pages = (1...ProcessInfo.processInfo.activeProcessorCount + 4).map { n in
            Task { try await pool.readInline { db in try Int.fetchOne(db, sql: "SELECT ?", arguments: [n]) ?? 0 } }
        }
        Task {
            var read: [Int] = [try await long.value]
            for page in pages { read.append(try await page.value) }
            #expect(read == [1] + Array(1...pages.count))
            done.signal()
        }
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            gate.signal()
        }
        #expect(Self.wait(for: done, seconds: 30), "every read ended")
    }

    /// Waits on this thread (a test's own wait, which the reads above must not need).
    static func wait(for semaphore: DispatchSemaphore, seconds: Int) -> Bool {
        semaphore.wait(timeout: .now() + .seconds(seconds)) == .success
    }
}
