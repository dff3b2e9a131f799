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
                #expect(text.contains("# TYPE sangha_http_requests_total counter"))
                #expect(text.contains(#"sangha_http_requests_total{route="/friends",method="GET",status="200"} 1"#))
                #expect(text.contains("# TYPE sangha_http_request_duration_seconds histogram"))
                #expect(
                    text.contains(
                        #"sangha_http_request_duration_seconds_count{route="/friends",method="GET",status="200"} 1"#))
                #expect(text.contains(#"sangha_friend_service_failures_total{call="list",reason="transport"}"#))
                #expect(
                    text.contains(
                        #"sangha_friend_service_call_duration_seconds_bucket{call="list",outcome="transport""#))
            }
        }
    }

    @Test("Anyone but loopback and the allowed addresses gets 403")
    func forbidden() async throws {
        // The router test has no peer address: like a stranger.
        let dependencies = try TestDependencies.make(
            friends: FakeFriendService.listing([]), metrics: TestMetrics.registry)
        try await withApp(dependencies: dependencies) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains("Metrics are served only to loopback"))
            }
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
