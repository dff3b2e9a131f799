import TemplateCompilerCore
import Testing
import ViewModelScanner

@Suite("Template compiler")
struct TemplateCompilerTests {
    static let source = """
        public struct RowViewModel: Sendable {
            public let name: String
            public let note: String?
        }

        public struct PageViewModel: Sendable {
            public let title: String
            public let rows: [RowViewModel]
            public let isEmpty: Bool
            public let count = 3
            public struct Entry: Sendable {
                public let url: String
            }
            public let entries: [Entry]
            public enum Kind: String, Sendable { case list }
            public let kind: Kind
            public let tone: Tone?
            public let level: Level
            public let card: CardViewModel
        }

        public struct CardViewModel: Sendable {
            public let title: String?
            public let caption: String
        }

        public struct KeptViewModel: Sendable {
            public let caption: String
            public let rows: [RowViewModel]
            public let rendering = KeptRendering()
        }

        public struct KeepingPageViewModel: Sendable {
            public let title: String
            public let kept: KeptViewModel?
        }

        public enum Tone: String, Sendable, CustomStringConvertible {
            case calm
            public var description: String { rawValue }
        }

        public enum Level: Int, Sendable { case low }
        """

    func generate(_ templates: [String: String]) throws -> String {
        var catalog = ViewModelCatalog()
        catalog.scan(source: Self.source, area: "Area")
        var parsed: [String: [TemplateNode]] = [:]
        var files: [String: String] = [:]
        for (name, text) in templates {
            files[name] = "Templates/\(name).mustache"
            parsed[name] = try TemplateParser.parse(text, file: files[name]!)
        }
        var generator = RenderFunctionGenerator(catalog: catalog, templates: parsed, files: files)
        return try generator.generate(imports: [])
    }

    @Test("Stored properties are read with their types; nested types are qualified")
    func catalog() {
        var catalog = ViewModelCatalog()
        catalog.scan(source: Self.source, area: "Area")
        #expect(catalog.type(of: "rows", in: "PageViewModel") == .array(.named("RowViewModel")))
        #expect(catalog.type(of: "note", in: "RowViewModel") == .optional(.named("String")))
        #expect(catalog.type(of: "count", in: "PageViewModel") == .named("Int"))
        #expect(catalog.type(of: "entries", in: "PageViewModel") == .array(.named("PageViewModel.Entry")))
        #expect(catalog.areas["PageViewModel"] == "Area")
        #expect(catalog.areas["PageViewModel.Entry"] == nil, "a nested type has no area of its own")
    }

    @Test("A standalone section tag takes its whole line; inline tags keep the text around them")
    func standaloneLines() throws {
        let nodes = try TemplateParser.parse("<ul>\n  {{#rows}}\n  <li>{{name}}</li>\n  {{/rows}}\n</ul>\n", file: "t")
        #expect(
            nodes == [
                .text("<ul>\n"),
                .section(
                    path: ["rows"], body: [.text("  <li>"), .variable(path: ["name"], line: 3), .text("</li>\n")],
                    line: 2),
                .text("</ul>\n"),
            ]
        )
    }

    /// Expects `template` (Area/page) to fail to compile at `line`, saying `message`.
    func expectError(_ template: String, line: Int, saying message: String) {
        #expect {
            _ = try generate(["Area/page": template])
        } throws: { error in
            let description = String(describing: error)
            return description.hasPrefix("Templates/Area/page.mustache:\(line): error:")
                && description.contains(message)
        }
    }

    @Test("A name the view model lacks is an error at the template's file and line")
    func unknownName() throws {
        expectError(
            "<h1>{{title}}</h1>\n{{#rows}}\n{{fullName}}\n{{/rows}}\n", line: 3,
            saying: "RowViewModel has no stored property 'fullName'")
    }

    @Test("A name is looked up the context stack, innermost first, as Mustache looks it up")
    func contextStack() throws {
        let code = try generate([
            "Area/page": "{{#rows}}{{title}}: {{name}}{{/rows}}{{#card}}{{caption}} of {{count}}{{/card}}"
        ])
        #expect(code.contains("out.appendText(self.title)"))
        #expect(code.contains("out.appendText(e1[i2].name)"))
        #expect(code.contains("out.appendText(self.card.caption)"))
        #expect(code.contains("out.appendEscaped(self.count)"))
    }

    @Test(
        "Text in the page's text is written by appendText (a name's isolates as <bdi>); in a tag, an attribute, a comment, the title, an option or a textarea, as it is"
    )
    func markupPlaces() throws {
        let code = try generate([
            "Area/page": """
            <!DOCTYPE html>
            <title>{{title}} · Sangha</title>
            <a href="/x" title='{{card.caption}}' data-x={{title}}>{{card.caption}}</a>
            <!-- {{title}} > -->
            <select><option value="1">{{title}}</option></select>
            <p>{{#rows}}<span class="a>b">{{name}}</span>{{/rows}}</p>
            <textarea>{{title}}</TEXTAREA><b>{{card.caption}}</b>{{> Area/_part}}

            """,
            "Area/_part": "<input value=\"{{card.caption}}\"><em>{{card.caption}}</em>\n",
        ])
        #expect(code.ranges(of: "out.appendEscaped(self.title)").count == 5)
        #expect(!code.contains("out.appendText(self.title)"))
        #expect(code.ranges(of: "out.appendEscaped(self.card.caption)").count == 2)
        #expect(code.ranges(of: "out.appendText(self.card.caption)").count == 3)
        #expect(code.contains("out.appendText(e1[i2].name)"))
    }

    @Test(
        "An optional that hides an outer view model's name is an error: swift-mustache reads the outer one when it is nil"
    )
    func optionalHidesOuterName() {
        expectError(
            "{{#card}}\n{{title}}\n{{/card}}", line: 2,
            saying: "CardViewModel.title is optional and hides PageViewModel.title")
    }

    @Test(
        "A section over a view model that keeps its rendering is written from it when kept, else rendered and kept; it reads no name from outside"
    )
    func keptRendering() throws {
        let code = try generate([
            "Area/keeping-page":
                "<h1>{{title}}</h1>\n{{#kept}}\n<p>{{caption}}</p>\n{{#rows}}{{name}}{{/rows}}\n{{/kept}}\n"
        ])
        #expect(code.contains("if !out.replay(self.kept!.rendering, site: "))
        #expect(code.contains("out.keep(self.kept!.rendering, site: "))
        #expect(code.contains("out.appendText(self.kept!.caption)"))
        // The kept body is indented inside its `if`, one level in from the `if` itself.
        let lines = code.split(separator: "\n")
        let replay = try #require(lines.firstIndex { $0.contains("if !out.replay(self.kept!.rendering") })
        let caption = try #require(lines.firstIndex { $0.contains("out.appendText(self.kept!.caption)") })
        let indentation = { (line: Substring) in line.prefix { $0 == " " }.count }
        #expect(indentation(lines[caption]) == indentation(lines[replay]) + 4)
        // A section over a view model without one is rendered each time.
        #expect(try generate(["Area/page": "{{#card}}{{caption}}{{/card}}"]).contains("replay") == false)
        #expect {
            _ = try generate(["Area/keeping-page": "{{#kept}}\n{{caption}} {{title}}\n{{/kept}}"])
        } throws: { error in
            String(describing: error).contains(
                "{{title}} is read from KeepingPageViewModel, outside KeptViewModel, whose rendering is kept")
        }
    }

    @Test("Unescaped output is refused")
    func unescaped() {
        #expect(throws: TemplateError.self) { _ = try TemplateParser.parse("{{{title}}}", file: "t") }
        #expect(throws: TemplateError.self) { _ = try TemplateParser.parse("{{&title}}", file: "t") }
        #expect(throws: TemplateError.self) { _ = try TemplateParser.parse("{{=<% %>=}}", file: "t") }
    }

    @Test("Printing a list is an error; sections over flags, optionals and lists compile")
    func types() throws {
        #expect(throws: TemplateError.self) { _ = try generate(["Area/page": "{{rows}}"]) }
        let code = try generate([
            "Area/page":
                "{{#isEmpty}}none{{/isEmpty}}{{^isEmpty}}{{count}}{{/isEmpty}}{{#rows}}{{#note}}{{.}}{{/note}}{{/rows}}{{#entries}}{{url}}{{/entries}}"
        ])
        #expect(code.contains("extension PageViewModel: Renderable {\n    public static let template = \"Area/page\""))
        #expect(code.contains(#"static let names: [String] = [\#n        "Area/page",\#n    ]"#))
        #expect(code.contains(" = self.rows.span\n"))
        #expect(code.contains("out.startElement()"))
        #expect(code.contains("if self.note != nil") == false)
        #expect(code.contains("if !self.isEmpty"))
    }

    @Test("A partial is written in place, its lines indented as the code is made; one that includes itself is an error")
    func partialsInPlace() throws {
        let code = try generate([
            "Area/page": "<ul>\n  {{> Area/_row}}\n</ul>\n",
            "Area/_row": "<li>\n{{count}}\n</li>\n",
        ])
        #expect(code.contains("out.enter(indentation: \"  \")"))
        #expect(code.contains("out.append(\"\\n  </li>\\n\")"))
        #expect(code.contains("out.appendEscaped(self.count)"))
        #expect {
            _ = try generate(["Area/page": "{{> Area/_loop}}", "Area/_loop": "x{{> Area/_loop}}"])
        } throws: { error in
            String(describing: error).contains("The partial 'Area/_loop' includes itself.")
        }
    }

    @Test("A String-backed enum prints its raw value; another enum is not text")
    func stringEnums() throws {
        let code = try generate(["Area/page": "{{kind}} {{tone}} {{#kind}}{{.}}{{/kind}}"])
        #expect(code.contains("out.appendEscaped(self.kind.rawValue)"))
        #expect(code.contains("if let p1 = self.tone {\n            out.appendEscaped(p1.rawValue)"))
        // The section over the enum reads it through its path, no copy bound to a name.
        #expect(code.ranges(of: "out.appendEscaped(self.kind.rawValue)").count == 2)
        #expect {
            _ = try generate(["Area/page": "{{level}}"])
        } throws: { error in
            String(describing: error).contains("{{…}} prints text; self.level is a Level.")
        }
    }

    @Test(
        "A template is the view model's whose name it is, in its area; a page has the layout; an underscore or no area is a piece"
    )
    func roots() throws {
        var catalog = ViewModelCatalog()
        catalog.scan(
            source: """
                public struct LayoutViewModel { public let title: String }
                public struct HistoryViewModel { public let layout: LayoutViewModel }
                public struct HistoryChartViewModel { public let bars: [Int] }
                """, area: "History")
        #expect(
            ViewModelCatalog.viewModel(ofTemplate: "History/history-chart").map { "\($0.type) in \($0.area)" }
                == "HistoryChartViewModel in History")
        #expect(ViewModelCatalog.viewModel(ofTemplate: "History/_session-form") == nil)
        #expect(ViewModelCatalog.viewModel(ofTemplate: "layout") == nil)
        #expect(
            try catalog.roots(of: ["History/history", "History/history-chart", "History/_row", "layout"]) == [
                TemplateRoot(template: "History/history", type: "HistoryViewModel", isPage: true),
                TemplateRoot(template: "History/history-chart", type: "HistoryChartViewModel", isPage: false),
            ])
        #expect {
            _ = try catalog.roots(of: ["History/histogram"])
        } throws: { error in
            String(describing: error).contains("This template is HistogramViewModel's")
        }
        #expect {
            _ = try catalog.roots(of: ["Profiles/history-chart"], files: ["Profiles/history-chart": "T.mustache"])
        } throws: { error in
            String(describing: error).hasPrefix("T.mustache:1: error:")
                && String(describing: error).contains("belongs in Templates/History")
        }
    }
}
