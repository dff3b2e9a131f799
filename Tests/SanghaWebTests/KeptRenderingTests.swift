import Hummingbird
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// `TemplateOutput.replay`: a kept section's bytes are written again only where the section
/// begins as it began when they were kept.
struct KeptRenderingTests {
    /// A page inside a partial indented by two spaces (so a section begun at a line's start owes
    /// them) that writes `before`, then a partial indented by `indentation` holding a kept
    /// section (site 1: a line, then a value that starts a line of its own), then `</ul>`.
    static func page(_ before: StaticString, kept: KeptRendering, indentation: String = "  ") -> String {
        rendered(before, kept: kept, indentation: indentation).html
    }

    /// The page, and whether its section was written from the kept bytes.
    static func rendered(_ before: StaticString, kept: KeptRendering, indentation: String = "  ") -> (
        html: String, replayed: Bool
    ) {
        var out = TemplateOutput(capacity: 64)
        let outer = out.enter(indentation: "  ")
        out.append(before)
        let partial = out.enter(indentation: indentation)
        let section = out.enter()
        let replayed = out.replay(kept, site: 1)
        if !replayed {
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
        out.leave(outer)
        return (String(buffer: out.finish(TemplateSizeHint())), replayed)
    }

    @Test("Begun at a line's start or in a line, in another indentation: rendered again, never the other's bytes")
    func keyedByWhereItBegins() {
        let states: [(StaticString, String)] = [("<ul>\n", "  "), ("<ul>", "  "), ("<ul>\n", "    ")]
        let kept = states.map { _ in KeptRendering() }
        let fresh = zip(states, kept).map { Self.page($0.0, kept: $1, indentation: $0.1) }
        // Each state's section writes other bytes (a key that ignored one would replay the wrong ones).
        #expect(Set(kept.compactMap { $0.last?.bytes }).count == states.count)
        for (first, second) in [(0, 1), (1, 0), (0, 2), (2, 1)] {
            let kept = KeptRendering()
            #expect(Self.page(states[first].0, kept: kept, indentation: states[first].1) == fresh[first])
            let other = Self.rendered(
                states[second].0, kept: kept, indentation: states[second].1)
            #expect(other.html == fresh[second] && !other.replayed)
            // Kept for the second now, which is written again from it.
            let again = Self.rendered(
                states[second].0, kept: kept, indentation: states[second].1)
            #expect(again.html == fresh[second] && again.replayed)
        }
    }
}
