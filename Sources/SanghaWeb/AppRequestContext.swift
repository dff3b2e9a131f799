import Hummingbird
import SanghaViewModels

/// The request context of Sangha's routes: Hummingbird's core, plus the flash message that the
/// previous response left for this page.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `FlashMiddleware` from the flash cookie.
    public var flash: FlashViewModel?
    /// The CSRF token of this browser, set by `CSRFMiddleware`; every form carries it.
    public var formToken: String = ""

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }
}
