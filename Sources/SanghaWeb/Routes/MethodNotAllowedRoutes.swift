import Hummingbird
import SanghaViewModels

/// A known address asked with a method it does not answer gets 405 with an `Allow` header,
/// not the 404 of an unknown address. An address that answers GET answers HEAD too (the
/// router's `autoGenerateHeadEndpoints`), but for those whose GET does more than read.
enum MethodNotAllowedRoutes {
    static let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]

    /// GETs HEAD must not run: a group's event stream (HEAD would open it for nothing), and the
    /// identity provider's way there and back (a start sets the attempt's cookie, the return
    /// spends the provider's one-use code and signs in, a confirmation asks the provider).
    static let withoutHead: Set<String> = [
        Paths.groupEvents.pattern, Paths.providerSignInStart.pattern, Paths.providerSignIn.pattern,
        Paths.confirmProvider.pattern,
    ]

    static func add(to router: Router<AppRequestContext>) {
        let routes = router.routes
        var allowed: [String: [HTTPRequest.Method]] = [:]
        var paths: [String: RouterPath] = [:]
        for route in routes {
            allowed[route.path.description, default: []].append(route.method)
            if route.method == .get, !withoutHead.contains(route.path.description) {
                allowed[route.path.description, default: []].append(.head)
            }
            paths[route.path.description] = route.path
        }
        for (key, methods) in allowed {
            guard let path = paths[key] else { continue }
            let allow = methods.map(\.rawValue).sorted().joined(separator: ", ")
            for method in Self.methods where !methods.contains(method) {
                router.on(path, method: method) { _, context -> Response in
                    throw HTTPError(
                        .methodNotAllowed,
                        headers: [.allow: allow],
                        message: context.page.words.errorMethodNotAllowedDetail(method: method.rawValue)
                    )
                }
            }
        }
    }
}
