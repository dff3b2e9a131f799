import Foundation
import FriendServiceClient
import Hummingbird
import HummingbirdTesting
import Metrics
import Prometheus
import SanghaCore
import SanghaTestSupport
import SanghaWeb
import Testing

/// The one metrics system of the test process, bootstrapped on first use (it can be only once).
enum TestMetrics {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()
}

@Suite("Metrics")
struct MetricsRoutesTests {
    @Test("GET /metrics from loopback: Prometheus text with requests by route and status, and FriendService failures")
    func served() async throws {
        let friends = MeteredFriendService(FakeFriendService.failing(.transport("connection refused")))
        let dependencies = try TestDependencies.make(friends: friends, metrics: TestMetrics.registry)
        // A live server: the requests come from loopback, which may read the metrics.
        try await withSignedInApp(dependencies: dependencies, testing: .live) { client in
            try await client.execute(uri: "/friends", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                let text = String(buffer: response.body)
                let types = Self.types(text)
                let samples = Self.samples(text)
                // The process has one metrics system, and other tests' apps running at the same
                // time count their requests in it too: this test's page is one of them.
                #expect(types["sangha_http_requests_total"] == "counter")
                #expect(samples[#"sangha_http_requests_total{route="/friends",method="GET",status="200"}"#] ?? 0 >= 1)
                #expect(types["sangha_http_request_duration_seconds"] == "histogram")
                #expect(
                    samples[#"sangha_http_request_duration_seconds_count{route="/friends",method="GET",status="200"}"#]
                        ?? 0 >= 1)
                // Only this test's FriendService is metered: the page's one list call failed, by
                // transport, and its time was taken.
                #expect(samples[#"sangha_friend_service_failures_total{call="list",reason="transport"}"#] == 1)
                #expect(
                    samples[#"sangha_friend_service_call_duration_seconds_count{call="list",outcome="transport"}"#]
                        == 1)
            }
        }
    }

    /// Each metric's type, from Prometheus text's `# TYPE name type` lines.
    static func types(_ text: String) -> [String: String] {
        Dictionary(
            text.split(separator: "\n").compactMap { line in
                line.wholeMatch(of: /# TYPE (\S+) (\S+)/).map { (String($0.1), String($0.2)) }
            }, uniquingKeysWith: { first, _ in first })
    }

    /// Each sample's value by its name and labels, as written (`name{label="value",…}`).
    static func samples(_ text: String) -> [String: Double] {
        Dictionary(
            text.split(separator: "\n").compactMap { line in
                line.wholeMatch(of: /([^#\s][^ ]*) (\S+)/).flatMap { match in
                    Double(match.2).map { (String(match.1), $0) }
                }
            }, uniquingKeysWith: { first, _ in first })
    }

    @Test("Anyone but loopback and the allowed addresses gets 403")
    func forbidden() async throws {
        // The router test has no peer address: like a stranger.
        let dependencies = try TestDependencies.make(
            friends: FakeFriendService.listing([]), metrics: TestMetrics.registry)
        try await withApp(dependencies: dependencies) { client in
            // 403: "Metrics are served only to loopback and --metrics-allowed addresses."
            try await client.execute(uri: "/metrics", method: .get) { assertResponse($0, named: "forbidden") }
        }
        let access = MetricsAccess(allowed: ["10.0.0.7", "fd00::7"])
        #expect(access.permits(ip: "127.0.0.1"))
        #expect(access.permits(ip: "::1"))
        #expect(access.permits(ip: "::ffff:127.0.0.1"))
        #expect(access.permits(ip: "10.0.0.7"))
        #expect(access.permits(ip: "::ffff:10.0.0.7"))
        #expect(access.permits(ip: "fd00::7"))
        #expect(!access.permits(ip: "10.0.0.8"))
        #expect(!access.permits(ip: "192.168.1.10"))
        #expect(!MetricsAccess().permits(ip: "10.0.0.7"))
        #expect(MetricsAccess.address("FD00:0::7") == "fd00::7")
        #expect(MetricsAccess.address("10.0.0.7") == "10.0.0.7")
        #expect(MetricsAccess.address("prometheus.internal") == nil)
        // Through a proxy on the same machine, loopback is anyone.
        #expect(!access.permits(ip: "127.0.0.1", forwarded: true))
        #expect(MetricsAccess(allowed: ["127.0.0.1"]).permits(ip: "127.0.0.1", forwarded: true))
    }
}
