/// Where in a page's HTML a template's text has left the output, followed through the template
/// as it is written (partials and blocks in place): in the page's text, or not (in a tag, an
/// attribute's value, a comment, or an element whose content is text only to the browser's
/// parser). A value printed in the page's text is written with `TemplateOutput.appendText`,
/// which writes a name's isolates as `<bdi>`; anywhere else markup would be text or wrong, and
/// the isolates stay the characters they are. swift-mustache's pages (`--dev`, and the reference
/// the compiled templates are tested against) are read by the same rules
/// (`MustacheTemplates.bidiElements`).
public struct MarkupPlace: Equatable, Sendable {
    enum State: Equatable, Sendable {
        case text
        /// Inside `<…>`; `name` is the element's, lowercased, `isEnd` for `</…>`.
        case tag(name: String, isEnd: Bool)
        case quoted(Character, name: String, isEnd: Bool)
        case comment
        /// Inside an element whose content takes no markup, until its end tag.
        case within(String)
    }

    /// Elements whose content is text alone: the raw and escapable raw text elements, and
    /// `<option>`, whose parser drops any tag inside it.
    static let textOnly: Set<String> = ["title", "textarea", "script", "style", "option"]

    private(set) var state = State.text

    public init() {}

    public var isText: Bool { state == .text }

    /// Follows `text`, written after what came before.
    public mutating func follow(_ text: String) {
        let characters = Array(text.unicodeScalars)
        var index = 0
        func name(from start: Int) -> String {
            var end = start
            while end < characters.count,
                characters[end].properties.isAlphabetic || ("0"..."9").contains(characters[end])
            {
                end += 1
            }
            return String(String.UnicodeScalarView(characters[start..<end])).lowercased()
        }
        func starts(_ prefix: String, at position: Int) -> Bool {
            let scalars = Array(prefix.unicodeScalars)
            guard position + scalars.count <= characters.count else { return false }
            return zip(characters[position...], scalars).allSatisfy {
                String($0).lowercased() == String($1)
            }
        }
        while index < characters.count {
            let character = characters[index]
            switch state {
            case .text:
                if character == "<", index + 1 < characters.count {
                    let next = characters[index + 1]
                    if starts("<!--", at: index) {
                        state = .comment
                        index += 4
                        continue
                    } else if next.properties.isAlphabetic {
                        state = .tag(name: name(from: index + 1), isEnd: false)
                    } else if next == "/" {
                        state = .tag(name: name(from: index + 2), isEnd: true)
                    } else if next == "!" || next == "?" {
                        state = .tag(name: "", isEnd: true)
                    }
                }
            case .tag(let name, let isEnd):
                if character == "\"" || character == "'" {
                    state = .quoted(Character(character), name: name, isEnd: isEnd)
                } else if character == ">" {
                    state = !isEnd && Self.textOnly.contains(name) ? .within(name) : .text
                }
            case .quoted(let quote, let name, let isEnd):
                if Character(character) == quote { state = .tag(name: name, isEnd: isEnd) }
            case .comment:
                if starts("-->", at: index) {
                    state = .text
                    index += 3
                    continue
                }
            case .within(let element):
                if starts("</" + element, at: index) {
                    state = .tag(name: element, isEnd: true)
                    index += 2 + element.unicodeScalars.count
                    continue
                }
            }
            index += 1
        }
    }
}
