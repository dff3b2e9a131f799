import Hummingbird
import SanghaViewModels

/// The request context of Sangha's routes: Hummingbird's core, plus the page context that
/// `PageContextMiddleware` builds for this request (form token, flash, clock, time zone).
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var page = PageContext()

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }
}
