import Hummingbird

/// A known address asked with a method it does not answer gets 405 with an `Allow` header,
/// not the 404 of an unknown address.
enum MethodNotAllowedRoutes {
    static let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]

    static func add(to router: Router<AppRequestContext>) {
        let routes = router.routes
        var allowed: [String: [HTTPRequest.Method]] = [:]
        var paths: [String: RouterPath] = [:]
        for route in routes {
            allowed[route.path.description, default: []].append(route.method)
            paths[route.path.description] = route.path
        }
        for (key, methods) in allowed {
            guard let path = paths[key] else { continue }
            let allow = methods.map(\.rawValue).sorted().joined(separator: ", ")
            for method in Self.methods where !methods.contains(method) {
                router.on(path, method: method) { _, _ -> Response in
                    throw HTTPError(
                        .methodNotAllowed,
                        headers: [.allow: allow],
                        message: "This address does not accept \(method.rawValue) requests."
                    )
                }
            }
        }
    }
}
