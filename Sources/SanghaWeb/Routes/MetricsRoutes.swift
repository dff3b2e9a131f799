import Hummingbird
import NIOCore
import Prometheus

/// `GET /metrics`: every metric of the process in Prometheus's text format, for the
/// operator's scraper: requests by route and status with their latency
/// (`RequestMetricsMiddleware`), database calls, FriendService calls and failures. Served only
/// to loopback and the addresses the operator allows; anyone else gets 403.
struct MetricsRoutes {
    let registry: PrometheusCollectorRegistry
    let access: MetricsAccess

    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("metrics") { _, context -> Response in
            guard access.permits(context.remoteAddress) else {
                throw HTTPError(
                    .forbidden, message: "Metrics are served only to loopback and --metrics-allowed addresses.")
            }
            var buffer: [UInt8] = []
            buffer.reserveCapacity(16 * 1024)
            registry.emit(into: &buffer)
            return Response(
                status: .ok,
                headers: [.contentType: Self.contentType, .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
        }
    }
}

/// Who may read `/metrics`: loopback always, and each address in `allowed` exactly.
public struct MetricsAccess: Sendable {
    public let allowed: Set<String>

    public init(allowed: [String] = []) {
        self.allowed = Set(allowed)
    }

    func permits(_ address: SocketAddress?) -> Bool {
        guard let ip = address?.ipAddress else { return false }
        return permits(ip: ip)
    }

    /// Whether a peer at `ip` (as SwiftNIO prints it) may read the metrics.
    public func permits(ip: String) -> Bool {
        let bare = ip.hasPrefix("::ffff:") ? String(ip.dropFirst("::ffff:".count)) : ip
        return bare.hasPrefix("127.") || bare == "::1" || allowed.contains(bare) || allowed.contains(ip)
    }
}
