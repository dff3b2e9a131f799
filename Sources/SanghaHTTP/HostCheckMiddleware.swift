import HTTPTypes
import Hummingbird

/// Serves only the configured host names (a DNS-rebinding defence, as careful localhost servers
/// do): a page fetched as `http://evil.example:8080/` by a browser tricked into resolving that
/// name to 127.0.0.1 carries `Host: evil.example:8080` and gets 421 and no page.
public struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Host names, lowercased, without port: `localhost`, `127.0.0.1`, `[::1]`, and any added.
    public let allowedHosts: Set<String>
    /// The port the server listens on; a Host header may name it or no port at all.
    public let port: Int
    /// The port of `--public-url`, when it names one: a proxy passes the Host people typed.
    public var publicPort: Int?

    /// The loopback names every server answers to.
    public static var loopbackHosts: Set<String> { ["localhost", "127.0.0.1", "[::1]"] }

    public init(allowedHosts: Set<String>, port: Int, publicPort: Int? = nil) {
        self.allowedHosts = allowedHosts
        self.port = port
        self.publicPort = publicPort
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws
        -> Response
    {
        guard let authority = request.head.authority else {
            return Self.refusal(.badRequest, "A Host header is required.\n")
        }
        // The first Host is the authority; a second one is still a header field. Two names for
        // one request could be read one way here and another way by a proxy.
        guard request.headers[.host] == nil else {
            return Self.refusal(.badRequest, "A request has one Host header.\n")
        }
        guard Self.isAllowed(authority, hosts: allowedHosts, port: port, publicPort: publicPort) else {
            return Self.refusal(.misdirectedRequest, "This server does not serve that host name.\n")
        }
        return try await next(request, context)
    }

    public static func isAllowed(_ authority: String, hosts: Set<String>, port: Int, publicPort: Int? = nil) -> Bool {
        let (host, authorityPort) = split(authority.lowercased())
        guard hosts.contains(host) else { return false }
        return authorityPort == nil || authorityPort == port || authorityPort == publicPort
    }

    /// `[::1]:8080` → (`[::1]`, 8080); `localhost` → (`localhost`, nil).
    static func split(_ authority: String) -> (host: String, port: Int?) {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            let host = String(authority[...end])
            let rest = authority[authority.index(after: end)...]
            return (host, rest.hasPrefix(":") ? Int(rest.dropFirst()) ?? -1 : (rest.isEmpty ? nil : -1))
        }
        let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count == 2 ? Int(parts[1]) ?? -1 : nil)
    }

    /// No page: a page could leak to whoever set up the foreign name.
    static func refusal(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }
}

extension HTTPField.Name {
    /// HTTP/1's Host, which HTTP types turn into the request's authority: only a second one is
    /// left among the header fields.
    static let host = HTTPField.Name("Host")!
}
