import Foundation
import SanghaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `sangha serve`'s own part in what a connection may hold: its open-files limit and
/// `--connections-per-address`.
@Suite("Transport limits end to end", .serialized)
struct TransportEndToEndTests {
    @Test("sangha serve raises its soft open-files limit to the hard limit at start")
    func openFilesLimit() async throws {
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        // Started with a soft limit of 256 under a hard one this process may give (at most its own).
        let hard = min(UInt64(limit.rlim_max), 65_536)
        try #require(hard > 256, "this machine's hard limit leaves nothing to raise")
        let data = try RepositoryPaths.temporaryDirectory("sangha-nofile")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await SanghaProcess.serve(
            dataDirectory: data, nil, launcher: ["/usr/bin/prlimit", "--nofile=256:\(hard)"])
        defer { server.stopInBackground() }
        let limits = try String(contentsOfFile: "/proc/\(server.processIdentifier)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = line.split(separator: " ").compactMap { UInt64($0) }
        #expect(numbers == [hard, hard], "\(line)")
        #expect(server.log.contains("Open files allowed raised to the hard limit"))
    }

    @Test("--connections-per-address: the next connection from one address is refused, another address is served")
    func connectionsPerAddress() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-connections")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await SanghaProcess.serve(
            dataDirectory: data,
            ["--friend-service-port", "\(try SilentServer.freePort())", "--connections-per-address", "2"])
        defer { server.stopInBackground() }
        let health = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        // Kept open between requests (the idle timeout is 30 s), from 127.0.0.3 (the test's
        // HTTP client connects from 127.0.0.1).
        var held: [RawStream] = []
        for _ in 0..<2 {
            let stream = try RawStream(health, port: server.port, source: "127.0.0.3")
            #expect(await stream.read(until: "\r\n\r\nOK", timeout: 10))
            held.append(stream)
        }
        let refused = try RawStream([], port: server.port, source: "127.0.0.3")
        #expect(await refused.readToEnd(timeout: 10))
        #expect(refused.text.hasPrefix("HTTP/1.1 503"))
        let other = try RawStream(health, port: server.port, source: "127.0.0.2")
        #expect(await other.read(until: "\r\n\r\nOK", timeout: 10))
        #expect(server.log.contains("A client address holds 2 connections"))
        withExtendedLifetime(held) {}
    }

    @Test("--connections-per-address and its variable are in --help; a negative or non-numeric value stops the start")
    func flag() async throws {
        let (status, help) = try await SanghaProcess.run(["serve", "--help"])
        #expect(status == 0)
        #expect(help.contains("--connections-per-address"))
        #expect(help.contains("SANGHA_CONNECTIONS_PER_ADDRESS"))
        let negative = try await SanghaProcess.run(["serve", "--connections-per-address=-1"])
        #expect(negative.status != 0)
        #expect(negative.output.contains("--connections-per-address must be 0 (no limit) or more."))
        let word = try await SanghaProcess.run(["serve"], environment: ["SANGHA_CONNECTIONS_PER_ADDRESS": "many"])
        #expect(word.status != 0)
        #expect(word.output.contains("SANGHA_CONNECTIONS_PER_ADDRESS=many is not a valid Int"))
    }
}
