import Foundation

/// A page that says a request could not be served: an unknown page, bad input, a failure.
/// Which HTTP status it goes with is the web layer's to say, never a number here.
public struct ErrorPageViewModel: Sendable, Equatable, Encodable {
    /// What went wrong, as the page words it.
    public enum Kind: Sendable, Equatable {
        case notFound
        case badRequest
        case contentTooLarge
        /// A post made while signed out, or after the session ended.
        case signInRequired
        /// Anything else, headed by its HTTP reason phrase.
        case other(reasonPhrase: String)
    }

    public let layout: LayoutViewModel
    public let heading: String
    public let message: String
    /// Where to go from here: the sign-in page after a post made while signed out, else home.
    public let link: LinkViewModel

    /// A page with words of its own: a failure a view model names (the outcome carries its
    /// `PageFailure`, and so its status). `signIn`: the link leads to the sign-in page when no
    /// one is signed in.
    public init(heading: String, message: String, signIn: Bool = false, context: PageContext) {
        self.layout = LayoutViewModel(title: heading, section: nil, context: context)
        self.heading = heading
        self.message = message
        self.link =
            signIn && context.person == nil
            ? LinkViewModel(url: Paths.signIn.url, label: "Sign in")
            : LinkViewModel(url: Paths.home.url, label: "Go to the home page")
    }

    /// The words Sangha uses for `kind`, with `message` when the failure said more.
    public init(_ kind: Kind, message: String?, context: PageContext) {
        let (heading, fallback): (String, String) =
            switch kind {
            case .notFound: ("Page not found", "There is no page at this address.")
            case .contentTooLarge: ("Too much data", "The form sent more data than Sangha accepts.")
            case .badRequest: ("Bad request", "Sangha could not read what the browser sent.")
            case .signInRequired:
                ("Sign in to continue", "You are not signed in, or your session has ended. Nothing was changed.")
            case .other(let reasonPhrase): (reasonPhrase, "Something went wrong on our side. Please try again.")
            }
        self.init(heading: heading, message: message ?? fallback, signIn: kind == .signInRequired, context: context)
    }

    public static func notFound(_ message: String? = nil, context: PageContext) -> ErrorPageViewModel {
        ErrorPageViewModel(.notFound, message: message, context: context)
    }
}
