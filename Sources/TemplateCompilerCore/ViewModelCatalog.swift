import Foundation

/// A Swift type as a template sees it.
public indirect enum SwiftType: Equatable, Sendable, CustomStringConvertible {
    case named(String)
    case optional(SwiftType)
    case array(SwiftType)

    public init(parsing text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("?") {
            self = .optional(SwiftType(parsing: String(text.dropLast())))
        } else if text.hasPrefix("["), text.hasSuffix("]") {
            self = .array(SwiftType(parsing: String(text.dropFirst().dropLast())))
        } else {
            self = .named(text)
        }
    }

    public var description: String {
        switch self {
        case .named(let name): name
        case .optional(let wrapped): "\(wrapped)?"
        case .array(let element): "[\(element)]"
        }
    }
}

/// The stored properties of the view models, read from their Swift source, and which template
/// each renders with (`extension X: Page { public static let template = "…" }`).
///
/// A view model is data: a struct of stored `let` properties (STYLE.md). That is all this reads;
/// a computed property is invisible to Mustache, and so it is here.
public struct ViewModelCatalog: Sendable {
    /// Properties by qualified type name (`GalleryViewModel.Entry`), in declaration order.
    public private(set) var properties: [String: [(name: String, type: SwiftType)]] = [:]
    /// Root type of each compiled template.
    public private(set) var templates: [(template: String, type: String)] = []

    public init() {}

    public mutating func scan(source: String) {
        var stack: [(name: String, depth: Int)] = []
        var depth = 0
        let structPattern = /^\s*(?:public\s+|internal\s+)?struct\s+(\w+)/
        let letPattern =
            /^\s*(?:public\s+|internal\s+)?(?:private\(set\)\s+)?let\s+(\w+)\s*(?::\s*([^=]+?))?\s*(?:=\s*(.+?))?\s*$/
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = line.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : String(line)
            if let match = line.firstMatch(of: structPattern) {
                let name = String(match.1)
                let qualified = stack.last.map { "\($0.name).\(name)" } ?? name
                stack.append((qualified, depth))
                properties[qualified, default: []] = properties[qualified] ?? []
            } else if let owner = stack.last, depth == owner.depth + 1, let match = line.firstMatch(of: letPattern),
                !line.contains("static ")
            {
                let name = String(match.1)
                let type: SwiftType?
                if let annotation = match.2 {
                    type = SwiftType(parsing: String(annotation))
                } else if let value = match.3 {
                    type = Self.literalType(String(value))
                } else {
                    type = nil
                }
                if let type { properties[owner.name, default: []].append((name, type)) }
            }
            var inString = false
            var previous: Character = " "
            for character in code {
                defer { previous = character }
                if character == "\"", previous != "\\" { inString.toggle() }
                if inString { continue }
                if character == "{" { depth += 1 }
                if character == "}" {
                    depth -= 1
                    if let owner = stack.last, depth == owner.depth { stack.removeLast() }
                }
            }
        }
        let templatePattern =
            /extension\s+([\w.]+)\s*:\s*(?:Page|Renderable)\s*\{\s*public\s+static\s+let\s+template\s*=\s*"([^"]+)"/
        for match in source.matches(of: templatePattern) {
            templates.append((String(match.2), String(match.1)))
        }
    }

    static func literalType(_ value: String) -> SwiftType? {
        if value.hasPrefix("\"") { return .named("String") }
        if value == "true" || value == "false" { return .named("Bool") }
        if Int(value) != nil { return .named("Int") }
        if let name = value.firstMatch(of: /^([A-Z][\w.]*)\(/)?.1 { return .named(String(name)) }
        return nil
    }

    /// The type of `name` on `owner`, nil when the view model has no such stored property.
    public func type(of name: String, in owner: String) -> SwiftType? {
        properties[owner]?.first { $0.name == name }.map { resolve($0.type, in: owner) }
    }

    /// Names of nested types are qualified by their owner when the owner declares them.
    func resolve(_ type: SwiftType, in owner: String) -> SwiftType {
        switch type {
        case .optional(let wrapped): return .optional(resolve(wrapped, in: owner))
        case .array(let element): return .array(resolve(element, in: owner))
        case .named(let name):
            let nested = "\(owner).\(name)"
            return properties[nested] != nil ? .named(nested) : .named(name)
        }
    }
}
