import Hummingbird
import Testing

@testable import SanghaWeb

/// `RequestCookies` reads a `Cookie` header by bytes; it must find what Hummingbird's `Cookies`
/// finds, for every name a page asks, in headers as browsers send them and as they should not.
struct RequestCookiesTests {
    static let headers: [[String]] = [
        [],
        [""],
        ["sangha_csrf=abc"],
        ["sangha_csrf=abc; sangha_session=0123456789abcdef"],
        ["sangha_session=first; sangha_session=second"],
        ["  sangha_flash=e30.sig;\tsangha_csrf=x=y=z;other"],
        ["sangha_csrf", "sangha_csrf=late"],
        ["a=1;;;b=2; ;sangha_device=name.nonce.sig ;"],
        ["sangha_csrf=; sangha_session=\"quoted\""],
        ["sangha_csrf=", "sangha_csrf=later"],
        ["__Host-sangha_csrf=secure; sangha_csrf=plain"],
        ["x=1", "sangha_session=from-the-second-header"],
        ["sangha_csrfx=near; xsangha_csrf=miss; sangha_csrf =spaced"],
        ["é=accent; sangha_flash=ü"],
    ]
    static let names = [
        "sangha_csrf", "sangha_session", "sangha_flash", "sangha_device", "__Host-sangha_csrf", "a", "b", "x",
        "other", "é", "missing",
    ]

    @Test("Each name is found as Hummingbird's Cookies finds it", arguments: headers)
    func sameAsHummingbird(headers: [String]) {
        let ours = RequestCookies(headers: headers)
        let theirs = Cookies(from: headers)
        for name in Self.names {
            #expect(ours[name] == theirs[name]?.value, "\(name) in \(headers)")
        }
    }

    @Test("The first part with the name wins, its value as it is")
    func firstAndExact() {
        let cookies = RequestCookies(headers: ["sangha_session=first; sangha_session=second", "  b=x=y ;"])
        #expect(cookies["sangha_session"] == "first")
        #expect(cookies["b"] == "x=y ")
        #expect(cookies["sangha"] == nil)
    }
}
