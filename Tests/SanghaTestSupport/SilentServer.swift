import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP listener on 127.0.0.1 that accepts connections into its backlog and never answers:
/// the FriendService that hangs.
public final class SilentServer {
    public let port: Int
    private let socketDescriptor: Int32

    public init() throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.socketDescriptor = socketDescriptor
        guard socketDescriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socketDescriptor, 16) == 0 else {
            close(socketDescriptor)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socketDescriptor)
    }

    /// The connections waiting in the backlog, never accepted: how many times someone called.
    /// (For a listening socket Linux reports its accept queue's length as `tcpi_unacked`.)
    public var waitingConnections: Int {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(socketDescriptor, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return 0 }
        return Int(info.tcpi_unacked)
    }

    /// Waits until more than `count` connections are waiting (a caller is now hanging on this
    /// server), or the deadline passes; says which.
    public func waitForConnections(moreThan count: Int, within limit: Duration = .seconds(30)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while waitingConnections <= count {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}

extension SilentServer {
    /// A loopback port that nothing listens on right now: a listener is opened on port 0 and
    /// closed again.
    public static func freePort() throws -> Int {
        try SilentServer().port
    }
}
