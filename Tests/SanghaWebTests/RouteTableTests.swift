import Hummingbird
import HummingbirdTesting
import SanghaViewModels
import SanghaWeb
import Testing

/// Each URL is written once, in `Paths`: the router answers exactly those, and the links view
/// models build from them reach the routes they name.
@Suite("The route table")
struct RouteTableTests {
    @Test("The router registers every route of Paths, and none that Paths does not list")
    func routerAnswersPaths() throws {
        let router = try buildRouter(
            configuration: .testing, dependencies: TestDependencies.make(metrics: TestMetrics.registry),
            renderer: .compiled(signer: TestDependencies.signer))
        // The 405 answers (MethodNotAllowedRoutes) are on the same paths: only GET and POST name one.
        let registered = Set(router.routes.filter { [.get, .post].contains($0.method) }.map(\.path.description))
        let listed = Set(Paths.all.map { RouterPath($0.pattern).description })
        #expect(registered.subtracting(listed).sorted() == [], "routes Paths does not list")
        #expect(listed.subtracting(registered).sorted() == [], "Paths the router does not answer")
        #expect(Paths.all.count == listed.count, "a pattern listed twice")
    }

    @Test("A link fills its route's parameters in order, and the router reads them back")
    func linksMatchPatterns() async throws {
        #expect(Paths.sit.url(7) == "/profiles/7/sit")
        #expect(Paths.groupSit.url(3, 12) == "/groups/3/sits/12")
        #expect(Paths.revokeGroupInvitation.url(3, 4) == "/groups/3/invitations/4/revoke")
        #expect(Paths.groupInvitationLink.url("abc") == "/groups/invite/abc")
        #expect(Paths.groupInvitationLink.value(inPath: "/groups/invite/abc") == "abc")
        for path in ["/groups/invite/", "/groups/invite/a/b", "/groups/invite/a?x", "/groups/3"] {
            #expect(Paths.groupInvitationLink.value(inPath: path) == nil, "\(path)")
        }
        #expect(Paths.home.url == "/")

        let router = Router()
        router.get(RouterPath(Paths.groupSit.pattern)) { _, context in
            "\(context.parameters.get("id") ?? "")/\(context.parameters.get("sit") ?? "")"
        }
        #expect(Paths.groupSit.parameterNames == ["id", "sit"])
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: Paths.groupSit.url(5, 9), method: .get) { response in
                #expect(String(buffer: response.body) == "5/9")
            }
        }
    }
}
