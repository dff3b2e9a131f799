import Hummingbird
import SanghaViewModels

extension RouterMethods {
    /// Registers `GET` of one of `Paths`' routes.
    @discardableResult func get<Values>(
        _ route: Route<Values>,
        use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        on(RouterPath(route.pattern), method: .get, use: handler)
    }

    /// Registers `POST` to one of `Paths`' routes.
    @discardableResult func post<Values>(
        _ route: Route<Values>,
        use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        on(RouterPath(route.pattern), method: .post, use: handler)
    }
}

extension Route {
    /// The request's path's values as the route types them (`Void`, `Int`, `String` or
    /// `(Int, Int)`); nil when one that is a number is not (the path names nothing).
    func values(in context: some RequestContext) -> Values? {
        let texts = parameterNames.map { context.parameters.get($0) }
        let numbers = texts.map { $0.flatMap { Int($0) } }
        switch texts.count {
        case 0: return () as? Values
        case 1: return (numbers[0] as? Values) ?? (Values.self == String.self ? texts[0] as? Values : nil)
        default:
            guard let first = numbers[0], let second = numbers[1] else { return nil }
            return (first, second) as? Values
        }
    }

    /// The parameter `index` of the request's path as a number. One that is not a number names
    /// nothing: 404 with `notFound`.
    fileprivate func number(_ index: Int, in context: some RequestContext, notFound: String) throws -> Int {
        guard let value = context.parameters.get(parameterNames[index], as: Int.self) else {
            throw HTTPError(.notFound, message: notFound)
        }
        return value
    }
}

extension Route where Values == Int {
    /// The id of the request's path; one that is not a number is 404 with `notFound`.
    func value(in context: some RequestContext, notFound: String) throws -> Int {
        try number(0, in: context, notFound: notFound)
    }
}

extension Route where Values == (Int, Int) {
    /// The two ids of the request's path; one that is not a number is 404 with `notFound`.
    func values(in context: some RequestContext, notFound: String) throws -> (Int, Int) {
        (try number(0, in: context, notFound: notFound), try number(1, in: context, notFound: notFound))
    }
}

extension Route where Values == String {
    /// The request's path's one parameter, as sent.
    func value(in context: some RequestContext) -> String? {
        context.parameters.get(parameterNames[0])
    }
}
