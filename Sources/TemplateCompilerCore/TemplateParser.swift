/// Parses a template the way swift-mustache does (its `MustacheTemplate.parse`), for the strict
/// subset: names, dotted names, sections, inverted sections, partials with fixed names,
/// inheritance with blocks, comments. Unescaped output, lambdas' transforms, dynamic partials
/// and delimiter changes are refused: they have no place in Sangha's templates.
public struct TemplateParser {
    private let characters: [Character]
    private var position = 0
    private let file: String

    public static func parse(_ text: String, file: String) throws -> [TemplateNode] {
        var parser = TemplateParser(characters: Array(text), file: file)
        return try parser.parseBody(State())
    }

    private init(characters: [Character], file: String) {
        self.characters = characters
        self.file = file
    }

    struct State {
        var sectionName: String?
        var newLine = true
        var isPartialDefinition = false
        var isPartialDefinitionTopLevel = false
        var partialDefinitionIndent: String?

        func section(_ name: String, newLine: Bool) -> State {
            var state = self
            state.sectionName = name
            state.isPartialDefinitionTopLevel = false
            if !newLine { state.newLine = false }
            return state
        }

        func inheritance(_ name: String) -> State {
            var state = self
            state.sectionName = name
            state.newLine = true
            state.isPartialDefinition = true
            state.isPartialDefinitionTopLevel = true
            return state
        }
    }

    // MARK: - Reading

    private var reachedEnd: Bool { position >= characters.count }
    private var current: Character { characters[position] }

    private var line: Int {
        1 + characters[..<min(position, characters.count)].reduce(0) { $0 + ($1.isNewline ? 1 : 0) }
    }

    private func failure(_ message: String) -> TemplateError {
        TemplateError(file: file, line: line, message: message)
    }

    @discardableResult
    private mutating func read(while predicate: (Character) -> Bool) -> String {
        var text = ""
        while !reachedEnd, predicate(current) {
            text.append(current)
            position += 1
        }
        return text
    }

    private mutating func read(_ string: String) -> Bool {
        let expected = Array(string)
        guard position + expected.count <= characters.count,
            Array(characters[position..<position + expected.count]) == expected
        else { return false }
        position += expected.count
        return true
    }

    /// Text up to a newline (not consumed) or `{{` (consumed).
    private mutating func readUntilTagOrNewline() -> String {
        var text = ""
        while !reachedEnd {
            if current.isNewline { break }
            if current == "{", read("{{") { break }
            text.append(current)
            position += 1
        }
        return text
    }

    private static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")
    private static let partialNameCharacters = nameCharacters.union(["/"])

    private mutating func readName(partial: Bool = false) throws -> String {
        read(while: { $0.isWhitespace })
        let allowed = partial ? Self.partialNameCharacters : Self.nameCharacters
        let name = read(while: { allowed.contains($0) })
        read(while: { $0.isWhitespace })
        guard read("}}") else {
            if !reachedEnd, current == "(" {
                throw failure("Transforms are not used in Sangha's templates.")
            }
            throw failure("Expected }} after '\(name)'.")
        }
        guard !name.isEmpty else { throw failure("A tag needs a name.") }
        return name
    }

    /// swift-mustache's `hasLineFinished`: only spaces or tabs up to the end of the line, which
    /// is then consumed.
    private mutating func hasLineFinished() -> Bool {
        if reachedEnd { return true }
        var lookahead = position
        while lookahead < characters.count, characters[lookahead] == " " || characters[lookahead] == "\t" {
            lookahead += 1
        }
        if lookahead < characters.count, characters[lookahead].isNewline {
            position = lookahead + 1
            return true
        }
        return false
    }

    private mutating func isStandalone(_ state: State) -> Bool {
        state.newLine && hasLineFinished()
    }

    private static func path(_ name: String) -> [String] {
        name == "." ? ["."] : name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    // MARK: - Parsing

    private mutating func parseBody(_ initial: State) throws -> [TemplateNode] {
        var nodes: [TemplateNode] = []
        var state = initial
        var whiteSpaceBefore = ""
        while !reachedEnd {
            if state.newLine {
                let whiteSpace = read(while: { $0 == " " || $0 == "\t" })
                if state.isPartialDefinition, !state.isPartialDefinitionTopLevel {
                    if let indent = state.partialDefinitionIndent {
                        whiteSpaceBefore = String(whiteSpace.dropFirst(indent.count))
                    } else {
                        state.partialDefinitionIndent = whiteSpace
                    }
                } else {
                    whiteSpaceBefore = whiteSpace
                }
            }
            let text = readUntilTagOrNewline()
            if !reachedEnd, current.isNewline {
                nodes.append(.text(whiteSpaceBefore + text + String(current)))
                state.newLine = true
                position += 1
                continue
            }
            if !text.isEmpty {
                nodes.append(.text(whiteSpaceBefore + text))
                whiteSpaceBefore = ""
                state.newLine = false
            }
            if reachedEnd { break }

            let tagLine = line
            var setNewLine = false
            switch current {
            case "#", "^":
                let inverted = current == "^"
                position += 1
                let name = try readName()
                if isStandalone(state) {
                    setNewLine = true
                } else if !whiteSpaceBefore.isEmpty {
                    nodes.append(.text(whiteSpaceBefore))
                    whiteSpaceBefore = ""
                }
                let body = try parseBody(state.section(name, newLine: setNewLine))
                nodes.append(
                    inverted
                        ? .invertedSection(path: Self.path(name), body: body, line: tagLine)
                        : .section(path: Self.path(name), body: body, line: tagLine)
                )

            case "/":
                position += 1
                let name = try readName(partial: true)
                guard name == state.sectionName else {
                    throw failure(
                        "{{/\(name)}} closes a section that is not open (open: \(state.sectionName ?? "none")).")
                }
                if isStandalone(state) {
                    setNewLine = true
                } else if !whiteSpaceBefore.isEmpty {
                    nodes.append(.text(whiteSpaceBefore))
                }
                return nodes

            case "!":
                position += 1
                while !reachedEnd, !read("}}") { position += 1 }
                setNewLine = isStandalone(state)

            case "{", "&":
                throw failure(
                    "Unescaped output ({{{…}}} or {{&…}}) is not allowed: nothing reaches the page unescaped.")

            case "=":
                throw failure("Delimiter changes are not allowed in Sangha's templates.")

            case ">":
                position += 1
                read(while: { $0.isWhitespace })
                if !reachedEnd, current == "*" { throw failure("Dynamic partials are not allowed.") }
                let name = try readName(partial: true)
                if !whiteSpaceBefore.isEmpty { nodes.append(.text(whiteSpaceBefore)) }
                if isStandalone(state) {
                    setNewLine = true
                    nodes.append(.partial(name: name, indentation: whiteSpaceBefore, line: tagLine))
                } else {
                    nodes.append(.partial(name: name, indentation: nil, line: tagLine))
                }
                whiteSpaceBefore = ""

            case "<":
                position += 1
                read(while: { $0.isWhitespace })
                let name = try readName(partial: true)
                if name.hasPrefix("*") { throw failure("Dynamic partials are not allowed.") }
                if !whiteSpaceBefore.isEmpty { nodes.append(.text(whiteSpaceBefore)) }
                if isStandalone(state) { setNewLine = true }
                let body = try parseBody(state.inheritance(name))
                var blocks: [String: [TemplateNode]] = [:]
                for node in body {
                    switch node {
                    case .blockDefinition(let blockName, let blockBody): blocks[blockName] = blockBody
                    case .text: break
                    default: throw failure("Only {{$block}} overrides may stand inside {{<\(name)}}.")
                    }
                }
                nodes.append(.inherit(name: name, indentation: whiteSpaceBefore, blocks: blocks, line: tagLine))
                whiteSpaceBefore = ""

            case "$":
                position += 1
                let name = try readName()
                if state.isPartialDefinitionTopLevel {
                    if isStandalone(state) { setNewLine = true }
                    let body = try parseBody(state.section(name, newLine: setNewLine))
                    nodes.append(.blockDefinition(name: name, body: body))
                } else {
                    if !whiteSpaceBefore.isEmpty { nodes.append(.text(whiteSpaceBefore)) }
                    if isStandalone(state) { setNewLine = true }
                    let body = try parseBody(state.section(name, newLine: setNewLine))
                    nodes.append(.blockExpansion(name: name, defaultBody: body, indentation: whiteSpaceBefore))
                    whiteSpaceBefore = ""
                }

            case "%":
                throw failure("Configuration tags are not used in Sangha's templates.")

            default:
                if !whiteSpaceBefore.isEmpty {
                    nodes.append(.text(whiteSpaceBefore))
                    whiteSpaceBefore = ""
                }
                let name = try readName()
                nodes.append(.variable(path: Self.path(name), line: tagLine))
            }
            state.newLine = setNewLine
        }
        if let open = state.sectionName {
            throw failure("{{#\(open)}} is never closed.")
        }
        return nodes
    }
}
