/// Which view model renders with which template, found by name and area, so it is written
/// nowhere: `Templates/History/history-chart.mustache` is `HistoryChartViewModel`'s, which is
/// declared in `Sources/SanghaViewModels/History/`. A page's view model and its template share a
/// name and an area, and from either the other is found at once.
///
/// - A template in an area folder (`Templates/AREA/`) is the view model's whose name is its
///   own in UpperCamelCase with `ViewModel` after it; that view model must be declared in the
///   same area. It is a `Page` when the view model has the layout (`layout: LayoutViewModel`),
///   else a `Renderable` part.
/// - A template whose name begins with `_` (`Templates/Friends/_friend-row.mustache`) is a piece
///   of the templates that include it: it reads names of the page around it, and is never
///   rendered alone. So is a template outside the area folders (`Templates/layout.mustache`).
public struct TemplateRoot: Equatable, Sendable {
    /// The template's name, as partials and the renderer name it (`History/history-chart`).
    public let template: String
    /// The view model it renders.
    public let type: String
    /// Whether the view model is a whole page (it has the layout).
    public let isPage: Bool

    public init(template: String, type: String, isPage: Bool) {
        (self.template, self.type, self.isPage) = (template, type, isPage)
    }
}

extension ViewModelCatalog {
    /// The view model a template's name calls for (`History/history-chart` →
    /// `HistoryChartViewModel`), and the area it must be declared in; nil for a piece of a page.
    public static func viewModel(ofTemplate template: String) -> (type: String, area: String)? {
        let parts = template.split(separator: "/")
        guard parts.count == 2, let name = parts.last, !name.hasPrefix("_") else { return nil }
        let words = name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return (words.joined() + "ViewModel", String(parts[0]))
    }

    /// Every template a view model renders with, in name order, checked against the catalog: a
    /// template whose view model is missing, or declared in another area, is an error at the
    /// template's file (`files`, by template name).
    public func roots(of templates: some Collection<String>, files: [String: String] = [:]) throws -> [TemplateRoot] {
        try templates.sorted().compactMap { template in
            guard let (type, area) = Self.viewModel(ofTemplate: template) else { return nil }
            let file = files[template] ?? "Templates/\(template).mustache"
            guard let declared = areas[type] else {
                throw TemplateError(
                    file: file, line: 1,
                    message: "This template is \(type)'s, which Sources/SanghaViewModels/\(area) does not declare "
                        + "(after adding it, run `make catalog`). A piece of a page that is never rendered alone "
                        + "is named with a leading underscore.")
            }
            guard declared == area else {
                throw TemplateError(
                    file: file, line: 1,
                    message: "\(type) is declared in Sources/SanghaViewModels/\(declared): its template belongs "
                        + "in Templates/\(declared).")
            }
            return TemplateRoot(
                template: template, type: type, isPage: self.type(of: "layout", in: type) == .named("LayoutViewModel"))
        }
    }
}
