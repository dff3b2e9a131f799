import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SanghaCore

/// The address a request comes from, as the limits on guessing count it: the connection's peer,
/// or, when the peer is one of the trusted proxies, the client its `X-Forwarded-For` names (the
/// last address in it that is not itself a trusted proxy; what a client wrote before that is
/// not believed).
enum ClientAddress {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    static func of(_ request: Request, peer: SocketAddress?, trustedProxies: Set<String>) -> String? {
        guard let peer = peer?.ipAddress.map(bare) else { return nil }
        guard trustedProxies.contains(peer) else { return peer }
        let hops = request.headers[values: forwardedFor]
            .flatMap { $0.split(separator: ",") }
            .map { String($0.trimmingOptionalWhitespace()) }
        var client = peer
        for hop in hops.reversed() {
            // An address that is not one stops the walk: nothing before it is believed.
            guard let address = MetricsAccess.address(hop).map(bare) else { break }
            client = address
            if !trustedProxies.contains(address) { break }
        }
        return client
    }

    /// `1.2.3.4` for the IPv4-mapped `::ffff:1.2.3.4`.
    static func bare(_ ip: String) -> String {
        ip.hasPrefix("::ffff:") ? String(ip.dropFirst("::ffff:".count)) : ip
    }
}
