import Foundation

/// A Swift type as a template sees it.
public indirect enum SwiftType: Equatable, Sendable, CustomStringConvertible {
    case named(String)
    case optional(SwiftType)
    case array(SwiftType)

    /// A type as `description` writes it (`[Row]?`, `Outer.Inner`, `[String: Int]`): the form the
    /// catalog file keeps. Swift's other spellings (`Optional<T>`) are the scanner's to read.
    public init(catalogText text: String) {
        if text.hasSuffix("?") {
            self = .optional(SwiftType(catalogText: String(text.dropLast())))
        } else if text.hasPrefix("["), text.hasSuffix("]"), !Self.isDictionary(text) {
            self = .array(SwiftType(catalogText: String(text.dropFirst().dropLast())))
        } else {
            self = .named(text)
        }
    }

    /// `[K: V]`: a colon outside any inner brackets.
    private static func isDictionary(_ text: String) -> Bool {
        var depth = 0
        for character in text.dropFirst().dropLast() {
            switch character {
            case "[", "<", "(": depth += 1
            case "]", ">", ")": depth -= 1
            case ":" where depth == 0: return true
            default: continue
            }
        }
        return false
    }

    public var description: String {
        switch self {
        case .named(let name): name
        case .optional(let wrapped): "\(wrapped)?"
        case .array(let element): "[\(element)]"
        }
    }
}

/// The stored properties of the view models, and the area (the folder of
/// `Sources/SanghaViewModels`) each is declared in, by which it finds its template
/// (`TemplateRoot`).
///
/// The `ViewModelScanner` module reads it from the Swift sources (with SwiftSyntax) and
/// `Templates/view-models.json` keeps it, so the template compiler that runs in every build needs
/// neither SwiftSyntax nor the sources: the test suite checks that the file is what the sources
/// declare (`make catalog` writes it), and the Swift compiler checks every name the generated
/// code reads.
public struct ViewModelCatalog: Sendable {
    /// Properties by qualified type name (`GalleryViewModel.Entry`), in declaration order.
    public var properties: [String: [(name: String, type: SwiftType)]] = [:]
    /// The folder of `Sources/SanghaViewModels` each top-level type is declared in (`History`).
    public var areas: [String: String] = [:]
    /// Qualified names of the enums whose raw values are strings (`enum Kind: String`), which
    /// templates print as their raw values.
    public var stringEnums: Set<String> = []

    public init() {}

    /// The type of `name` on `owner`, nil when the view model has no such stored property.
    public func type(of name: String, in owner: String) -> SwiftType? {
        properties[owner]?.first { $0.name == name }.map { resolve($0.type, in: owner) }
    }

    /// A type named in `owner` is, as in Swift, the one nested innermost around it: in `owner`,
    /// else in the types enclosing `owner`, else at the top level.
    func resolve(_ type: SwiftType, in owner: String) -> SwiftType {
        switch type {
        case .optional(let wrapped): return .optional(resolve(wrapped, in: owner))
        case .array(let element): return .array(resolve(element, in: owner))
        case .named(let name):
            var scope = owner.split(separator: ".").map(String.init)
            while !scope.isEmpty {
                let nested = (scope + [name]).joined(separator: ".")
                if properties[nested] != nil || stringEnums.contains(nested) { return .named(nested) }
                scope.removeLast()
            }
            return .named(name)
        }
    }
}

extension ViewModelCatalog: Codable {
    /// The file is read by people in review: each type's area, each type's properties as
    /// `name: Type` lines in declaration order, keys sorted.
    private struct File: Codable {
        var areas: [String: String]
        var stringEnums: [String]
        var types: [String: [String]]
    }

    public init(from decoder: any Decoder) throws {
        let file = try File(from: decoder)
        self.areas = file.areas
        self.stringEnums = Set(file.stringEnums)
        self.properties = try file.types.mapValues { lines in
            try lines.map { line in
                guard let colon = line.range(of: ": ") else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: decoder.codingPath, debugDescription: "'\(line)' is not 'name: Type'."))
                }
                return (String(line[..<colon.lowerBound]), SwiftType(catalogText: String(line[colon.upperBound...])))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try File(
            areas: areas,
            stringEnums: stringEnums.sorted(),
            types: properties.mapValues { $0.map { "\($0.name): \($0.type)" } }
        ).encode(to: encoder)
    }

    /// The catalog file's text: stable from run to run, so an unchanged catalog is an unchanged file.
    public func fileText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    public init(fileText: String) throws {
        self = try JSONDecoder().decode(ViewModelCatalog.self, from: Data(fileText.utf8))
    }
}
