import Foundation
import SwiftParser
import SwiftSyntax
import TemplateCompilerCore

// Reads the view models' stored properties from their Swift source, parsed as the compiler parses
// it. Only the test suite and `make catalog` link this (and so SwiftSyntax): the build's template
// compiler reads the catalog file they write (Templates/view-models.json).

extension SwiftType {
    /// A type as Swift spells it: `T?`, `[T]`, `Optional<T>`, `Array<T>` or a name.
    public init(parsing text: String) {
        var parser = Parser(text)
        self.init(TypeSyntax.parse(from: &parser))
    }

    /// Optionals and arrays, sugared or spelled out, are what sections tell apart; any other
    /// type is a name.
    init(_ syntax: TypeSyntax) {
        if let optional = syntax.as(OptionalTypeSyntax.self) {
            self = .optional(SwiftType(optional.wrappedType))
        } else if let array = syntax.as(ArrayTypeSyntax.self) {
            self = .array(SwiftType(array.element))
        } else if let wrapped = syntax.genericArgument(of: "Optional") {
            self = .optional(SwiftType(wrapped))
        } else if let element = syntax.genericArgument(of: "Array") {
            self = .array(SwiftType(element))
        } else {
            self = .named(syntax.trimmedDescription)
        }
    }
}

extension ViewModelCatalog {
    /// Adds the declarations in one Swift file of `area` (its folder in
    /// `Sources/SanghaViewModels`), parsed as the compiler parses it, so no brace, quote or
    /// declaration inside a string or a comment is taken for code.
    ///
    /// A view model is data: a struct of stored `let` properties. That is all this reads; a
    /// computed property is invisible to Mustache, and so it is here.
    public mutating func scan(source: String, area: String) {
        let reader = DeclarationReader(into: self, area: area)
        reader.walk(Parser.parse(source: source))
        self = reader.catalog
    }
}

/// Adds one file's view model declarations to a catalog.
private final class DeclarationReader: SyntaxVisitor {
    var catalog: ViewModelCatalog
    let area: String

    init(into catalog: ViewModelCatalog, area: String) {
        self.catalog = catalog
        self.area = area
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        // Known even without properties, so names used in other view models resolve to it.
        let name = qualifiedName(of: node)
        if catalog.properties[name] == nil { catalog.properties[name] = [] }
        if node.enclosingType == nil { catalog.areas[name] = area }
        return .visitChildren
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        // A raw type comes first among the inherited types.
        if node.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription == "String" {
            catalog.stringEnums.insert(qualifiedName(of: node))
        }
        return .visitChildren
    }

    /// A struct's stored `let`s. A `static` one is not the view model's, a `private` one is out
    /// of reach of the compiled templates (in another file), and a `var` is not read, by
    /// convention (view models are `let`-only).
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let owner = node.enclosingType, owner.is(StructDeclSyntax.self),
            node.bindingSpecifier.tokenKind == .keyword(.let), !node.isStatic, !node.isFilePrivate
        else { return .skipChildren }
        // In `let a, b: Int`, `a` has the type annotated after it: the bindings are read last first.
        var type: SwiftType?
        var members: [(name: String, type: SwiftType)] = []
        for binding in node.bindings.reversed() {
            if let annotation = binding.typeAnnotation {
                type = SwiftType(annotation.type)
            } else if let value = binding.initializer?.value {
                type = Self.literalType(value)
            }
            if let type, let name = binding.pattern.identifierName {
                members.insert((name, type), at: 0)
            }
        }
        catalog.properties[qualifiedName(of: owner), default: []] += members
        return .skipChildren
    }

    // What function bodies, accessors and closures declare is local: never a view model.
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    /// `Outer.Inner` for a type declared in `Outer` or in `extension Outer`.
    private func qualifiedName(of declaration: some SyntaxProtocol) -> String {
        sequence(first: Syntax(declaration), next: \.enclosingType)
            .compactMap {
                $0.as(ExtensionDeclSyntax.self)?.extendedType.trimmedDescription
                    ?? $0.asProtocol(NamedDeclSyntax.self)?.name.text
            }
            .reversed()
            .joined(separator: ".")
    }

    /// The type of a `let` with no annotation, from its literal or its initializer call.
    private static func literalType(_ value: ExprSyntax) -> SwiftType? {
        if value.is(StringLiteralExprSyntax.self) { return .named("String") }
        if value.is(BooleanLiteralExprSyntax.self) { return .named("Bool") }
        if value.is(IntegerLiteralExprSyntax.self)
            || value.as(PrefixOperatorExprSyntax.self)?.expression.is(IntegerLiteralExprSyntax.self) == true
        {
            return .named("Int")
        }
        // `TypeName(…)` or `Outer.Inner(…)`; `Factory.make(…)` says nothing of its type.
        if let called = value.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription,
            called.split(separator: ".").allSatisfy({ $0.first?.isUppercase == true })
        {
            return .named(called)
        }
        return nil
    }
}

extension TypeSyntax {
    /// `T` in `name<T>`.
    fileprivate func genericArgument(of name: String) -> TypeSyntax? {
        guard let type = self.as(IdentifierTypeSyntax.self), type.name.text == name,
            let arguments = type.genericArgumentClause?.arguments, arguments.count == 1,
            case .type(let argument) = arguments.first?.argument
        else { return nil }
        return argument
    }
}

extension SyntaxProtocol {
    /// The nearest type or extension declaration this node is inside.
    fileprivate var enclosingType: Syntax? {
        sequence(first: Syntax(self), next: \.parent).dropFirst().first { $0.isProtocol(DeclGroupSyntax.self) }
    }
}

extension VariableDeclSyntax {
    fileprivate var isStatic: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) }
    }

    /// `private` or `fileprivate`; `private(set)` leaves it readable.
    fileprivate var isFilePrivate: Bool {
        modifiers.contains {
            [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) && $0.detail == nil
        }
    }
}

extension PatternSyntax {
    /// `a` in `let a`; nil for a tuple pattern.
    fileprivate var identifierName: String? {
        self.as(IdentifierPatternSyntax.self)?.identifier.text
    }
}

extension ViewModelCatalog {
    /// Where the catalog file lives, in the package.
    public static let filePath = "Templates/view-models.json"
    /// Where the view models are declared, each in the folder of its area.
    public static let viewModelDirectory = "Sources/SanghaViewModels"

    /// The catalog of the package at `root`, its files read in path order so the result never
    /// depends on the file system's.
    public static func scanning(package root: URL) throws -> ViewModelCatalog {
        var catalog = ViewModelCatalog()
        for path in try swiftFiles(in: root.appending(path: viewModelDirectory)) {
            let area = path.split(separator: "/").first.map(String.init) ?? ""
            catalog.scan(
                source: try String(
                    contentsOfFile: root.appending(path: viewModelDirectory).appending(path: path).path,
                    encoding: .utf8), area: area)
        }
        return catalog
    }

    /// The Swift files under `directory`, by their paths in it (`History/HistoryViewModel.swift`).
    private static func swiftFiles(in directory: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var paths: [String] = []
        while let path = enumerator.nextObject() as? String {
            if path.hasSuffix(".swift") { paths.append(path) }
        }
        return paths.sorted()
    }
}
