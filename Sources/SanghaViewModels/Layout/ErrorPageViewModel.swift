import Foundation
import SanghaCore

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
            ? LinkViewModel(url: Paths.signIn.url, label: context.words.signInTitle)
            : LinkViewModel(url: Paths.home.url, label: context.words.errorGoHome)
    }

    /// The words Sangha uses for `kind`, with `message` when the failure said more.
    public init(_ kind: Kind, message: String?, context: PageContext) {
        let words = context.words
        let (heading, fallback): (String, String) =
            switch kind {
            case .notFound: (words.errorNotFound, words.errorNotFoundDetail)
            case .contentTooLarge: (words.errorTooLarge, words.errorTooLargeDetail)
            case .badRequest: (words.errorBadRequest, words.errorBadRequestDetail)
            case .signInRequired: (words.errorSignInRequired, words.errorSignInRequiredDetail)
            case .other(let reasonPhrase):
                (Self.heading(reasonPhrase: reasonPhrase, words: words), words.errorSomethingWentWrong)
            }
        self.init(heading: heading, message: message ?? fallback, signIn: kind == .signInRequired, context: context)
    }

    /// The title of an error page of another status: its reason phrase, in the page's language
    /// when it is one of those Sangha answers with (English keeps the phrase as HTTP says it).
    static func heading(reasonPhrase: String, words: Words) -> String {
        switch reasonPhrase {
        case "Forbidden": words.errorForbidden
        case "Method Not Allowed": words.errorMethodNotAllowed
        case "Conflict": words.errorConflict
        case "Gone": words.errorGone
        case "Unprocessable Content": words.errorUnprocessableContent
        case "Request Timeout": words.errorRequestTimeout
        case "Bad Gateway": words.errorBadGateway
        case "Unsupported Media Type": words.errorUnsupportedMediaType
        case "Too Many Requests": words.errorTooManyRequests
        case "Internal Server Error": words.errorInternal
        case "Service Unavailable": words.errorUnavailable
        default: reasonPhrase
        }
    }

    public static func notFound(_ message: String? = nil, context: PageContext) -> ErrorPageViewModel {
        ErrorPageViewModel(.notFound, message: message, context: context)
    }
}

extension ErrorPageViewModel {
    /// The page of a read or a write the storage failed: `heading`, and the storage's own message
    /// for `error` (`StorageMessage`), `otherwise` when it has none.
    static func storage(_ error: any Error, heading: String, otherwise: String, context: PageContext)
        -> ErrorPageViewModel
    {
        ErrorPageViewModel(
            heading: heading, message: StorageMessage.text(for: error, otherwise: otherwise, words: context.words),
            context: context)
    }
}
