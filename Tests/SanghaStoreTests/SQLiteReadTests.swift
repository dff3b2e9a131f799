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
    /// thread waiting in a synchronous read, nothing moves. Here the pool's one reader is held by
    /// a long read while more page reads than the pool has threads wait for it; once the long
    /// read is let go (from a thread of its own), every read must end. The test waits only with
    /// `await` and on threads of its own: on the bad design it hangs (the suite's time limit
    /// fails it), and the page reads hold the pool's threads for about 50 ms.
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

        let long = Task {
            try await pool.readAside { db in
                held.signal()
                gate.wait()
                return try Int.fetchOne(db, sql: "SELECT 0") ?? -1
            }
        }
        await offThePool { held.wait() }
        let pages = (1...ProcessInfo.processInfo.activeProcessorCount + 4).map { n in
            Task { try await pool.readInline { db in try Int.fetchOne(db, sql: "SELECT ?", arguments: [n]) ?? -1 } }
        }
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            gate.signal()
        }
        var read = [try await long.value]
        for page in pages { read.append(try await page.value) }
        #expect(read == Array(0...pages.count))
    }
}
