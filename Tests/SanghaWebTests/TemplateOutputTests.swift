import Hummingbird
import Testing

@testable import SanghaWeb

/// What a compiled template's `{{value}}` writes: swift-mustache's escaping, found eight bytes
/// at a time.
struct TemplateOutputTests {
    /// The rule swift-mustache's `htmlEscape` follows, written out a character at a time (the
    /// fixtures' compiled pages are compared with swift-mustache's own in `FixtureSnapshotTests`).
    static func reference(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func escaped(_ text: String) -> String {
        var output = TemplateOutput(capacity: 8)
        output.appendEscaped(text)
        return String(buffer: output.finish(TemplateSizeHint()))
    }

    static func text(_ text: String) -> String {
        var output = TemplateOutput(capacity: 8)
        output.appendText(text)
        return String(buffer: output.finish(TemplateSizeHint()))
    }

    @Test("In a page's text a name's isolates are <bdi>, the name between them escaped, balanced whatever it holds")
    func isolates() {
        #expect(Self.text("تمت إضافة \u{2068}<Ada> & Bob\u{2069}.") == "تمت إضافة <bdi>&lt;Ada&gt; &amp; Bob</bdi>.")
        for length in 0...17 {
            let before = String(repeating: "a", count: length)
            #expect(Self.text(before + "\u{2068}b\u{2069}c") == before + "<bdi>b</bdi>c", "\(length)")
        }
        // An end without a start stays a character; a start the value leaves open is ended after it.
        #expect(Self.text("\u{2069}a\u{2068}b") == "\u{2069}a<bdi>b</bdi>")
        #expect(Self.text("\u{2068}\u{2068}x\u{2069}") == "<bdi><bdi>x</bdi></bdi>")
        // Other characters whose UTF-8 begins with E2 stay as they are (…, –, “, ”, U+2067).
        let near = "…–“x” \u{2067}y\u{202C} €"
        #expect(Self.text(near) == near)
        #expect(Self.text("Tom & Jerry's <b>") == Self.reference("Tom & Jerry's <b>"))
        // `appendEscaped` (an attribute, the title) writes them as the characters they are.
        #expect(Self.escaped("\u{2068}Ada\u{2069}") == "\u{2068}Ada\u{2069}")
    }

    @Test("swift-mustache's pages (--dev) get <bdi> where the compiled ones do: in the text, not in a tag or <title>")
    func mustacheIsolates() {
        let name = "\u{2068}سارا\u{2069}"
        let page =
            "<title>\(name)</title><a href=\"/me\" aria-label=\"Edit \(name)\">\(name)</a>"
            + "<select><option>\(name)</option></select><!-- \(name) --><p>\u{2069}x \(name).</p>"
        #expect(
            MustacheTemplates.bidiElements(page)
                == "<title>\(name)</title><a href=\"/me\" aria-label=\"Edit \(name)\"><bdi>سارا</bdi></a>"
                + "<select><option>\(name)</option></select><!-- \(name) --><p>\u{2069}x <bdi>سارا</bdi>.</p>")
        #expect(MustacheTemplates.bidiElements("<p>Ada</p>") == "<p>Ada</p>")
    }

    @Test("Each character that needs an entity gets it wherever it stands in a run of eight")
    func everyPlace() {
        for special in ["&", "<", ">", "\"", "'"] {
            for length in 0...20 {
                for place in 0...length {
                    let plain = String(repeating: "a", count: length)
                    var text = plain
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: place))
                    #expect(Self.escaped(text) == Self.reference(text), "\(text)")
                }
            }
        }
        // Bytes one away from each (%, ;, =, ?, !, #, (, ), bytes past 0x7F) stay as they are.
        let near = "%;=?!#()[]{}—é 😀 0123456789 ÿ\u{7F}\u{80}"
        #expect(Self.escaped(near) == near)
        let mixed = "<a href=\"x\">Tom & Jerry's</a> — \(near) & done"
        #expect(Self.escaped(mixed) == Self.reference(mixed))
        #expect(Self.escaped(String(repeating: "<&>", count: 100)) == String(repeating: "&lt;&amp;&gt;", count: 100))
    }

    @Test("A word without any of the five is passed whole; one with any is looked at")
    func wordTest() {
        func word(_ text: String) -> UInt64 {
            Array(text.utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        }
        #expect(!TemplateOutput.mayNeedEntity(word("abcdefgh")))
        #expect(!TemplateOutput.mayNeedEntity(word("%;=?!#()")))
        for special in ["&", "<", ">", "\"", "'"] {
            for place in 0..<8 {
                var text = Array("abcdefgh")
                text[place] = Character(special)
                #expect(TemplateOutput.mayNeedEntity(word(String(text))), "\(String(text))")
            }
        }
    }
}
