import TemplateCompilerCore
import Testing
import ViewModelScanner

@Suite("View model catalog")
struct ViewModelCatalogTests {
    func catalog(_ source: String) -> ViewModelCatalog {
        var catalog = ViewModelCatalog()
        catalog.scan(source: source, area: "Area")
        return catalog
    }

    func names(_ catalog: ViewModelCatalog, _ owner: String) -> [String]? {
        catalog.properties[owner]?.map(\.name)
    }

    @Test("Nested types are qualified by every type around them, and names resolve outwards")
    func nestedTypes() {
        let catalog = catalog(
            """
            public struct Outer {
                public struct Middle {
                    public struct Inner { public let text: String }
                    public let inner: Inner
                    public let sibling: Sibling
                }
                public struct Sibling { public let flag: Bool }
                public let middle: Middle?
            }
            """
        )
        #expect(names(catalog, "Outer.Middle.Inner") == ["text"])
        #expect(catalog.type(of: "inner", in: "Outer.Middle") == .named("Outer.Middle.Inner"))
        #expect(catalog.type(of: "sibling", in: "Outer.Middle") == .named("Outer.Sibling"))
        #expect(catalog.type(of: "middle", in: "Outer") == .optional(.named("Outer.Middle")))
    }

    @Test("Types declared in extensions and enums are qualified by the extended type")
    func extensionTypes() {
        let catalog = catalog(
            """
            public struct FriendsListViewModel: Sendable {
                public let rows: [Row]
            }

            extension FriendsListViewModel {
                public struct Row: Sendable { public let name: String }
            }

            public enum Namespace {
                public struct Entry { public let url: String }
            }
            """
        )
        #expect(names(catalog, "FriendsListViewModel.Row") == ["name"])
        #expect(catalog.type(of: "rows", in: "FriendsListViewModel") == .array(.named("FriendsListViewModel.Row")))
        #expect(names(catalog, "Namespace.Entry") == ["url"])
        #expect(catalog.properties["Row"] == nil)
    }

    @Test("Every binding of a `let` is read, with the type annotated after it or its literal's")
    func bindings() {
        let catalog = catalog(
            """
            struct Row {
                let first: Int, second: String?
                let left, right: Bool
                let listURL = "/profiles", isOpen = false, count = 3, offset = -1
                let entry = Row.Entry(url: "/"), made = Factory.make()
                let optional: Optional<String>, list: Array<Row>, both: [Row]?
            }
            """
        )
        let types = catalog.properties["Row"].map { Dictionary(uniqueKeysWithValues: $0.map { ($0.name, $0.type) }) }
        #expect(
            types == [
                "first": .named("Int"), "second": .optional(.named("String")),
                "left": .named("Bool"), "right": .named("Bool"),
                "listURL": .named("String"), "isOpen": .named("Bool"), "count": .named("Int"), "offset": .named("Int"),
                "entry": .named("Row.Entry"),
                "optional": .optional(.named("String")), "list": .array(.named("Row")),
                "both": .optional(.array(.named("Row"))),
            ]
        )
        #expect(names(catalog, "Row")?.prefix(4) == ["first", "second", "left", "right"])
    }

    @Test("Static, private, computed and `var` properties, and locals in bodies, are not read")
    func ignoredProperties() {
        let catalog = catalog(
            """
            public struct Page {
                public static let shared = Page()
                private static let limit: Int = 3
                public var title: String { "Title" }
                public var draft: String
                public let name: String
                private let secret: String
                fileprivate let hidden = true
                public private(set) let visible: Bool
                public func heading() -> String {
                    let local: String = name
                    struct Helper { let value: Int }
                    return local
                }
                public init() {
                    let temporary = "x"
                    self.name = temporary
                    self.draft = ""
                }
            }
            """
        )
        #expect(names(catalog, "Page") == ["name", "visible"])
        #expect(catalog.properties.keys.sorted() == ["Page"])
    }

    @Test("Braces, quotes and `//` in strings and comments leave the nesting alone")
    func stringsAndComments() {
        let catalog = catalog(
            #"""
            public struct First {
                public let json = "{\"a\": \"}\"}"
                public let raw = #"}}" // still a string"#
                public let link = "https://example.com/{id}" // a comment with a brace {
                public let help = """
                    Type } or { here.
                    struct Multiline {
                    """
                /* public let hidden: Int
                   struct Block { */
                public let after: Bool
            }
            // struct Fake {
            //     let x: Int
            public struct Second {
                public let name: String
            }
            """#
        )
        #expect(names(catalog, "First") == ["json", "raw", "link", "help", "after"])
        #expect(names(catalog, "Second") == ["name"])
        #expect(catalog.properties.keys.sorted() == ["First", "Second"])
    }

    @Test("Enums whose raw values are strings are recorded, nested ones qualified")
    func stringEnums() {
        let catalog = catalog(
            """
            public enum Tone: String, Sendable, Encodable { case calm }
            public enum Level: Int { case low }
            public enum Plain: Sendable { case one }
            public struct Field {
                public enum InputType: String, Sendable { case text }
                public let inputType: InputType
            }
            """
        )
        #expect(catalog.stringEnums == ["Tone", "Field.InputType"])
        #expect(catalog.type(of: "inputType", in: "Field") == .named("Field.InputType"))
    }

    @Test("Types are parsed as Swift spells them")
    func parsing() {
        #expect(SwiftType(parsing: "[Row]?") == .optional(.array(.named("Row"))))
        #expect(SwiftType(parsing: "Optional<[String]>") == .optional(.array(.named("String"))))
        #expect(SwiftType(parsing: "Outer.Inner") == .named("Outer.Inner"))
        #expect(SwiftType(parsing: "[String: Int]") == .named("[String: Int]"))
    }
}
