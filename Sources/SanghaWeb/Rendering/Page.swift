import Hummingbird
import SanghaViewModels

/// A view model with the template it renders with. A view model and its template share a name
/// and an area: `FriendsPanelViewModel`, declared in `Sources/SanghaViewModels/Home/`, renders
/// with `Templates/Home/friends-panel.mustache`. The build's template compiler makes each
/// conformance, `template` and `compiledHTMLBuffer()` from that rule (`TemplateRoot`): a
/// view model with the layout is a `Page`.
///
/// A piece of a page that reads a name of the page around it (a row's delete form reads the
/// page's `{{layout.formToken}}`) is rendered only within its page, and its template's name
/// begins with `_` (`Templates/Friends/_friend-row.mustache`): `FriendRowViewModel` is not
/// renderable alone.
public protocol Renderable: Encodable, Sendable {
    static var template: String { get }
    /// The template compiled to Swift at build time (the CompileTemplates plugin): the same
    /// bytes swift-mustache renders, without reflection, in the buffer a response sends.
    func compiledHTMLBuffer() -> ByteBuffer
}

/// A view model that is a whole page: it has the layout's title, navigation and flash.
public protocol Page: Renderable {
    var layout: LayoutViewModel { get }
}
