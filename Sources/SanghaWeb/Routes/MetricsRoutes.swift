import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus
import SanghaViewModels

/// `GET /metrics`: every metric of the process in Prometheus's text format, for the
/// operator's scraper: requests by route and status with their latency
/// (`RequestMetricsMiddleware`), database calls, FriendService calls and failures. Served only
/// to loopback and the addresses the operator allows; anyone else gets 403.
struct MetricsRoutes {
    let registry: PrometheusCollectorRegistry
    let access: MetricsAccess

    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Whether a proxy passed the request on: then its peer is the proxy, whatever the address
    /// of whoever asked.
    static func isForwarded(_ request: Request) -> Bool {
        request.headers[values: HTTPField.Name("X-Forwarded-For")!].count > 0
            || request.headers[values: HTTPField.Name("Forwarded")!].count > 0
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get(Paths.metrics) { request, context -> Response in
            guard access.permits(context.remoteAddress, forwarded: Self.isForwarded(request)) else {
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

/// Who may read `/metrics`: loopback, and each address in `allowed` exactly (as SwiftNIO
/// prints it: `sangha serve` writes the operator's addresses that way). A request a proxy
/// forwarded comes from loopback when the proxy runs on the same machine: it is served only
/// when the proxy's address is allowed by name.
public struct MetricsAccess: Sendable {
    public let allowed: Set<String>

    public init(allowed: [String] = []) {
        self.allowed = Set(allowed)
    }

    /// An IPv4 or IPv6 address as SwiftNIO prints a peer's (`FD00:0::7` → `fd00::7`), the form
    /// `allowed` is compared in; nil for anything else, host names included (a name could
    /// change what it points at).
    public static func address(_ text: String) -> String? {
        try? SocketAddress(ipAddress: text, port: 0).ipAddress
    }

    func permits(_ address: SocketAddress?, forwarded: Bool) -> Bool {
        guard let ip = address?.ipAddress else { return false }
        return permits(ip: ip, forwarded: forwarded)
    }

    /// Whether a peer at `ip` (as SwiftNIO prints it) may read the metrics; `forwarded`: the
    /// request came through a proxy.
    public func permits(ip: String, forwarded: Bool = false) -> Bool {
        let bare = ClientAddress.bare(ip)
        if allowed.contains(bare) || allowed.contains(ip) { return true }
        return !forwarded && (bare.hasPrefix("127.") || bare == "::1")
    }
}
