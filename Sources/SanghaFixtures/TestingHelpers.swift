import NIOCore
import SanghaViewModels
import SanghaWeb

// What tests read of view models and pages; the app never needs them.

extension Renderable {
    /// The compiled template's bytes as a string (tests and the bench compare them).
    public func compiledHTML() -> String {
        String(buffer: compiledHTMLBuffer())
    }
}

extension LoadOutcome {
    /// The page shown, whole or in part; nil when there is none.
    public var shownPage: Page? {
        switch self {
        case .page(let page), .partial(let page, _): page
        case .notFound, .failed: nil
        }
    }
}
