import Hummingbird
import SanghaCore

/// Why a request's form or query could not be read, said by the error page in the page's
/// language (`ErrorPageMiddleware`): the readers that find it (`decodeForm`, `MultipartForm`, a
/// row's query) know no language.
enum UnreadableRequest: HTTPResponseError, Equatable {
    /// A form that takes no file, sent as `multipart/form-data` (415).
    case formWithFile
    /// A form whose bytes, or percent-encoded bytes, are not UTF-8 (400).
    case formNotUTF8
    /// A field twice, or one its type cannot read (400).
    case formFieldsUnreadable
    /// A body that broke off before its declared end (400).
    case bodyEndedEarly
    /// A form with a file past its limit (413).
    case formTooLarge
    /// A form with a file that is broken, cut short or without its token first (400).
    case formUnreadable
    /// A form with a file with more parts than any of Sangha's forms (400).
    case formTooManyParts
    /// A form with a file with a field twice, or one without a name (400).
    case formFieldUnnamed
    /// A query its row's input cannot read (400).
    case queryUnreadable

    var status: HTTPResponse.Status {
        switch self {
        case .formWithFile: .unsupportedMediaType
        case .formTooLarge: .contentTooLarge
        default: .badRequest
        }
    }

    func message(_ words: Words) -> String {
        switch self {
        case .formWithFile: words.errorFormWithFile
        case .formNotUTF8: words.errorFormNotUtf8
        case .formFieldsUnreadable: words.errorFormFieldsUnreadable
        case .bodyEndedEarly: words.errorBodyEndedEarly
        case .formTooLarge: words.errorFormTooLarge
        case .formUnreadable: words.errorFormUnreadable
        case .formTooManyParts: words.errorFormTooManyParts
        case .formFieldUnnamed: words.errorFormFieldUnnamed
        case .queryUnreadable: words.errorQueryUnreadable
        }
    }

    /// Outside the error pages (none of Sangha's routes): the English message.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        try HTTPError(status, message: message(.english)).response(from: request, context: context)
    }
}
