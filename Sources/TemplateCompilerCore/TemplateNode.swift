/// A parsed template: what swift-mustache's parser makes of the strict subset of templates
/// described in docs/architecture.md, standalone lines and partial indentation included, so a
/// compiled template writes the same bytes.
public indirect enum TemplateNode: Equatable, Sendable {
    case text(String)
    /// `{{a.b}}`, escaped; `["."]` is the implicit iterator `{{.}}`.
    case variable(path: [String], line: Int)
    case section(path: [String], body: [TemplateNode], line: Int)
    case invertedSection(path: [String], body: [TemplateNode], line: Int)
    /// `{{> name}}`; `indentation` is set when the tag stands alone on its line.
    case partial(name: String, indentation: String?, line: Int)
    /// `{{< name}}…{{/name}}`: the named template with these blocks overridden.
    case inherit(name: String, indentation: String, blocks: [String: [TemplateNode]], line: Int)
    /// `{{$ name}}…{{/name}}` where the template is rendered: the override, else this default.
    case blockExpansion(name: String, defaultBody: [TemplateNode], indentation: String)
    /// `{{$ name}}…{{/name}}` directly inside `{{< …}}`: an override.
    case blockDefinition(name: String, body: [TemplateNode])
}

/// A template's error at its file and line (`SourceError`).
public typealias TemplateError = SourceError
