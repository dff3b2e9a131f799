import SanghaCore

/// One of Sangha's URLs, written once: the router registers its `pattern`, and view models
/// build links and redirects to it with `url`. `Values` are what fills its `{…}` parameters,
/// in order: `Void`, `Int`, `String` or `(Int, Int)`.
///
/// `Paths` lists them all.
public struct Route<Values>: Sendable, CustomStringConvertible {
    /// The router's pattern: "/profiles/{id}/sit".
    public let pattern: String
    /// The names of its parameters, in order: ["id"].
    public let parameterNames: [String]
    /// The text around the parameters: ["/profiles/", "/sit"], one more than the parameters
    /// (a link is built by concatenation: a list page builds 50 rows a request).
    let literals: [String]

    init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "A route's pattern begins with /: \(pattern)")
        self.pattern = pattern
        var names: [String] = []
        var literals = [""]
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            literals[literals.count - 1] += rest[..<open]
            names.append(String(rest[rest.index(after: open)..<close]))
            literals.append("")
            rest = rest[rest.index(after: close)...]
        }
        literals[literals.count - 1] += rest
        self.parameterNames = names
        self.literals = literals
    }

    public var description: String { pattern }

    /// The value of the one parameter of `path` when `path` is this route's
    /// ("/groups/invite/TOKEN" is `groupInvitationLink`'s, with "TOKEN"), else nil.
    func parameter(inPath path: String) -> String? {
        guard literals.count == 2, path.hasPrefix(literals[0]), path.hasSuffix(literals[1]),
            path.count > literals[0].count + literals[1].count
        else { return nil }
        let value = path.dropFirst(literals[0].count).dropLast(literals[1].count)
        return value.contains("/") || value.contains("?") || value.contains("#") ? nil : String(value)
    }
}

extension Route where Values == Void {
    public var url: String { pattern }
}

extension Route where Values == Int {
    public func url(_ id: Int) -> String { String(concatenating: literals[0], String(id), literals[1]) }
}

extension Route where Values == String {
    /// `value` is one path segment (a token): it must not hold "/", "?" or "#".
    public func url(_ value: String) -> String { String(concatenating: literals[0], value, literals[1]) }

    /// The value of `path` when it is this route's ("/groups/invite/TOKEN" → "TOKEN"), else nil.
    public func value(inPath path: String) -> String? { parameter(inPath: path) }
}

extension Route where Values == (Int, Int) {
    public func url(_ first: Int, _ second: Int) -> String {
        String(concatenating: literals[0], String(first), literals[1], String(second), literals[2])
    }
}

/// What the routers and the tests see of any route: its pattern.
public protocol AnyRoute: Sendable {
    var pattern: String { get }
}

extension Route: AnyRoute {}
