import Foundation
import Hummingbird

extension Request {
    /// Reads an `application/x-www-form-urlencoded` body of at most `limit` bytes.
    ///
    /// Too large: 413. Not UTF-8, or not a form: 400 with a reason. Fields the type does not
    /// name are ignored; fields it names but the body lacks are nil.
    /// The body is read from a copy: a handler keeps its `request` as it came, for the response.
    func decodeForm<Form: Decodable>(_ type: Form.Type, limit: Int) async throws -> Form {
        guard !isMultipartForm else {
            throw UnreadableRequest.formWithFile
        }
        var request = self
        let body = try await request.collectFormBody(limit: limit)
        guard let text = String(validating: body.readableBytesView, as: UTF8.self),
            PercentEncoding.decodesToUTF8(text)
        else {
            throw UnreadableRequest.formNotUTF8
        }
        do {
            return try URLEncodedFormDecoder().decode(type, from: text)
        } catch {
            throw UnreadableRequest.formFieldsUnreadable
        }
    }
}

extension Request {
    /// The whole body, at most `limit` bytes (else 413). A body that ends before its declared
    /// length, or breaks off, is the client's fault: 400, not a server error.
    mutating func collectFormBody(limit: Int) async throws -> ByteBuffer {
        do {
            return try await collectBody(upTo: limit)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            throw UnreadableRequest.bodyEndedEarly
        }
    }
}

extension Request {
    /// Whether the body is sent as `multipart/form-data` (a form with a file).
    var isMultipartForm: Bool {
        headers[.contentType].flatMap(MediaType.init(from:))?.isType(.multipartForm) == true
    }

    /// The boundary of a `multipart/form-data` body, when it has a valid one: its `boundary`
    /// parameter among any others, quoted or not, 1 to 70 of RFC 2046's characters.
    var multipartBoundary: String? {
        guard isMultipartForm, let contentType = headers[.contentType] else { return nil }
        let parameters = contentType.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
        guard var value = parameters.first(where: { $0.lowercased().hasPrefix("boundary=") })?.dropFirst(9) else {
            return nil
        }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=? ")
        guard (1...70).contains(value.count), value.allSatisfy(allowed.contains), value.last != " " else { return nil }
        return String(value)
    }
}
