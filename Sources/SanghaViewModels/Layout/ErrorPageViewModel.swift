import Foundation

/// A page that says a request could not be served: an unknown page, bad input, a failure.
public struct ErrorPageViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let status: Int
    public let heading: String
    public let message: String
    /// Where to go from here: the sign-in page after a post made while signed out (401), else
    /// home.
    public let link: LinkViewModel

    public init(status: Int, heading: String, message: String, context: PageContext) {
        self.layout = LayoutViewModel(title: heading, section: nil, context: context)
        self.status = status
        self.heading = heading
        self.message = message
        self.link =
            status == 401 && context.person == nil
            ? LinkViewModel(url: "/sign-in", label: "Sign in") : LinkViewModel(url: "/", label: "Go to the home page")
    }

    /// The page for `failure`, with its status.
    public init(failure: PageFailure, heading: String, message: String, context: PageContext) {
        self.init(status: failure.statusCode, heading: heading, message: message, context: context)
    }

    /// The page for a request that ended with HTTP `status`: the words Sangha uses for it, with
    /// `message` when the failure said more. `reasonPhrase` heads a status without words of its own.
    public init(status: Int, reasonPhrase: String, message: String?, context: PageContext) {
        let (heading, fallback): (String, String) =
            switch status {
            case 404: ("Page not found", "There is no page at this address.")
            case 413: ("Too much data", "The form sent more data than Sangha accepts.")
            case 400: ("Bad request", "Sangha could not read what the browser sent.")
            case 401: ("Sign in to continue", "You are not signed in, or your session has ended. Nothing was changed.")
            default: (reasonPhrase, "Something went wrong on our side. Please try again.")
            }
        self.init(status: status, heading: heading, message: message ?? fallback, context: context)
    }

    public static func notFound(_ message: String? = nil, context: PageContext) -> ErrorPageViewModel {
        ErrorPageViewModel(status: 404, reasonPhrase: "Not Found", message: message, context: context)
    }
}
