import Hummingbird
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// `TemplateOutput.replay`: a kept section's bytes are written again only where the section
/// begins as it began when they were kept.
struct KeptRenderingTests {
    /// A page that writes `before`, then a partial indented by two spaces holding a kept section
    /// (site 1: a line, then a value that starts a line of its own), then `</ul>`.
    static func page(_ before: StaticString, kept: KeptRendering, indentation: String = "  ") -> String {
        var out = TemplateOutput(capacity: 64)
        out.append(before)
        let partial = out.enter(indentation: indentation)
        let section = out.enter()
        if !out.replay(kept, site: 1) {
            let mark = out.keeping()
            out.append("<li>")
            out.appendEscaped("a & b")
            out.append("</li>\n")
            out.appendEscaped("c")
            out.keep(kept, site: 1, from: mark)
        }
        out.leave(section)
        out.leave(partial)
        out.append("\n</ul>")
        return String(buffer: out.finish(TemplateSizeHint()))
    }

    @Test("Begun at a line's start or in a line, in another indentation: rendered again, never the other's bytes")
    func keyedByWhereItBegins() {
        let states: [(StaticString, String)] = [("<ul>\n", "  "), ("<ul>", "  "), ("<ul>\n", "    ")]
        let fresh = states.map { Self.page($0.0, kept: KeptRendering(), indentation: $0.1) }
        #expect(Set(fresh).count == states.count)
        for (first, second) in [(0, 1), (1, 0), (0, 2), (2, 1)] {
            let kept = KeptRendering()
            #expect(Self.page(states[first].0, kept: kept, indentation: states[first].1) == fresh[first])
            #expect(Self.page(states[second].0, kept: kept, indentation: states[second].1) == fresh[second])
            // Kept for the second now, which is written again from it.
            #expect(kept.last?.bytes.isEmpty == false)
            #expect(Self.page(states[second].0, kept: kept, indentation: states[second].1) == fresh[second])
        }
    }
}
