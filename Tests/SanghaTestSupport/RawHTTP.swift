import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Sends bytes to a loopback port as they are and reads what comes back: for requests no HTTP
/// client would send (bad request lines, broken escapes, invalid UTF-8).
public enum RawHTTP {
    public struct Response: Sendable {
        /// The status code, or nil when the server closed without an HTTP answer.
        public let status: Int?
        public let head: String
        public let body: String
    }

    /// A request: `method target HTTP/1.1`, the headers given plus Host, Content-Length and
    /// `Connection: close`, then the body.
    public static func request(
        _ method: String,
        _ target: String,
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        port: Int
    ) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// A socket connected to 127.0.0.1:`port`, from `source` (another loopback address, like
    /// 127.0.0.2, is another client to the server); the caller closes it.
    static func connected(port: Int, receiveBuffer: Int32? = nil, source: String? = nil) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        // Before connecting, so the window it offers is small from the start.
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(descriptor)
                throw POSIXError(.EADDRNOTAVAIL)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        return descriptor
    }

    /// Sends `bytes`, closes its side and reads the answer to its end (on a thread of its own:
    /// `offThePool`).
    public static func send(_ bytes: [UInt8], port: Int, timeout: TimeInterval = 10) async throws -> Response {
        try await offThePool { try sendBlocking(bytes, port: port, timeout: timeout) }
    }

    private static func sendBlocking(_ bytes: [UInt8], port: Int, timeout: TimeInterval) throws -> Response {
        let descriptor = try connected(port: port)
        defer { close(descriptor) }
        var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { break }  // the server may close early, e.g. after a 413
            sent += count
        }
        shutdown(descriptor, Int32(SHUT_WR))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        let text = String(decoding: received, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let fields = statusLine.split(separator: " ")
        let status = fields.count >= 2 && fields[0].hasPrefix("HTTP/") ? Int(fields[1]) : nil
        return Response(status: status, head: head, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}

/// A response read as it comes, for one that does not end by itself (an event stream): the
/// request is sent whole, the connection stays open, and `read(until:)` reads on. Used by one
/// test at a time.
public final class RawStream: @unchecked Sendable {
    private let descriptor: Int32
    private var received: [UInt8] = []
    /// What has arrived so far.
    public var text: String { String(decoding: received, as: UTF8.self) }

    /// `receiveBuffer`: the socket's `SO_RCVBUF`, for a reader that lets little through;
    /// `source`: the loopback address it connects from (`RawHTTP.connected`).
    public init(_ bytes: [UInt8], port: Int, receiveBuffer: Int32? = nil, source: String? = nil) throws {
        descriptor = try RawHTTP.connected(port: port, receiveBuffer: receiveBuffer, source: source)
        guard send(bytes) else {
            close(descriptor)
            throw POSIXError(.EIO)
        }
    }

    deinit { close(descriptor) }

    /// Sends more of the request; false when the server has closed (or reset) the connection.
    /// Safe beside a `read` on another thread.
    @discardableResult public func send(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return sent == bytes.count
    }

    /// Ends the connection now (not when the stream is released): the server sees it close.
    public func disconnect() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Reads until what has arrived (since `from`, an offset in `text`) contains `marker`;
    /// false when `timeout` passes or the server closes first. Waits on a thread of its own.
    public func read(until marker: String, from start: Int = 0, timeout: TimeInterval) async -> Bool {
        await offThePool { self.readBlocking(until: marker, from: start, timeout: timeout) }
    }

    /// Sets the socket's `SO_RCVBUF` (the window it offers grows with it, up to 64 KB when it
    /// was connected with a small one).
    public func setReceiveBuffer(_ size: Int32) {
        var size = size
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Reads until the server closes the connection (true), or `timeout` passes (false).
    public func readToEnd(timeout: TimeInterval) async -> Bool {
        await offThePool {
            let deadline = Date().addingTimeInterval(timeout)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return false }
                var time = timeval(tv_sec: Int(left), tv_usec: Int((left - left.rounded(.down)) * 1_000_000))
                setsockopt(self.descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
                let count = recv(self.descriptor, &buffer, buffer.count, 0)
                if count == 0 { return true }
                if count < 0 {
                    // Timed out (the loop checks the deadline), or reset: an end too.
                    if errno == ECONNRESET { return true }
                    continue
                }
                self.received.append(contentsOf: buffer[0..<count])
            }
        }
    }

    private func readBlocking(until marker: String, from start: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !text.dropFirst(start).contains(marker) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var time = timeval(tv_sec: Int(left), tv_usec: Int((left - left.rounded(.down)) * 1_000_000))
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return false }
            if count < 0 { continue }  // timed out: the loop checks the deadline
            received.append(contentsOf: buffer[0..<count])
        }
        return true
    }
}
