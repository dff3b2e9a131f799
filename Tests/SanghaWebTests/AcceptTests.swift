import HTTPTypes
import Hummingbird
import Testing

@testable import SanghaWeb

/// Which requests are answered with the view model as JSON (`Request.prefersJSON`).
struct AcceptTests {
    func request(accept: String?) -> Request {
        var fields = HTTPFields()
        if let accept { fields[.accept] = accept }
        return Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "sangha.test", path: "/", headerFields: fields),
            body: RequestBody(buffer: ByteBuffer()))
    }

    @Test("JSON when it is asked for first, or ranked higher; HTML for browsers, curl and */*")
    func prefersJSON() {
        for json in [
            "application/json", "APPLICATION/JSON", "text/html;q=0.5, application/json", " application/Json ;q=1",
        ] {
            #expect(request(accept: json).prefersJSON, "\(json)")
        }
        for html in [
            nil, "*/*", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
            "text/html, application/json", "application/json;q=0.5, text/html", "application/jsonx", "jso, n",
        ] {
            #expect(!request(accept: html).prefersJSON, "\(html ?? "none")")
        }
    }

    @Test("A header that names no JSON, in any case, is not parsed")
    func namesJSON() {
        #expect(Request.namesJSON("application/JSON"))
        #expect(Request.namesJSON("jjson"))
        #expect(!Request.namesJSON("text/html, */*"))
        #expect(!Request.namesJSON("jso"))
        #expect(!Request.namesJSON("*SON"))
    }
}

/// `ASCIISearch`, which the request log and the Accept header look for words with.
struct ASCIISearchTests {
    @Test("A word is found anywhere, at the ends too; in any case only when asked; never past the end")
    func contains() {
        #expect(ASCIISearch.contains("{token}", in: "/calendar/{token}.ics"))
        #expect(ASCIISearch.contains("{token}", in: "{token}"))
        #expect(!ASCIISearch.contains("{token}", in: "/calendar/{TOKEN}.ics"))
        #expect(!ASCIISearch.contains("{token}", in: "{toke"))
        #expect(!ASCIISearch.contains("{token}", in: ""))
        #expect(ASCIISearch.contains("json", in: "application/JSON", anyCase: true))
        #expect(!ASCIISearch.contains("json", in: "application/JSON"))
        #expect(ASCIISearch.contains("json", in: "jjson", anyCase: true))
    }
}
