import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SanghaCore
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// Which language a page is in, as a person meets it: the browser's `Accept-Language`, the
/// picker at the foot of the sign-in and sign-up pages (the `lang` cookie), `--default-language`;
/// and what the page says about it (`<html lang dir>`, `Content-Language`, `Vary`).
@Suite("Languages through the routes")
struct LanguageRoutesTests {
    static func page(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test("No Accept-Language: English, said as such, and the answer does not vary by the header")
    func english() async throws {
        try await withApp { client in
            try await client.execute(uri: "/sign-in", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLanguage] == "en")
                #expect(!response.headers[values: .vary].contains("Accept-Language"))
                let html = Self.page(response)
                #expect(html.contains(#"<html lang="en" dir="ltr">"#))
                #expect(html.contains("<h1>Sign in</h1>"))
            }
        }
    }

    @Test("The browser's language, by RFC 4647 lookup: de-AT reads German, and the answer varies by it")
    func browser() async throws {
        let german = Words(.de)
        try await withApp { client in
            try await client.execute(
                uri: "/sign-up", method: .get, headers: [.acceptLanguage: "ja;q=0.9, de-AT, en;q=0.5"]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLanguage] == "de")
                #expect(response.headers[values: .vary].contains("Accept-Language"))
                let html = Self.page(response)
                #expect(html.contains(#"<html lang="de" dir="ltr">"#))
                #expect(html.contains("<h1>\(german.signUpTitle)</h1>"))
                #expect(html.contains(german.accountUsername))
                #expect(german.signUpTitle != Words.english.signUpTitle)
            }
        }
    }

    @Test("Arabic pages are right to left; each language of the picker is named in itself, the page's chosen")
    func arabic() async throws {
        try await withApp { client in
            try await client.execute(uri: "/sign-in", method: .get, headers: [.acceptLanguage: "ar-EG"]) {
                response in
                let html = Self.page(response)
                #expect(html.contains(#"<html lang="ar" dir="rtl">"#))
                #expect(html.contains(#"<option value="ar" lang="ar" selected>العربية</option>"#))
                #expect(html.contains(#"<option value="de" lang="de">Deutsch</option>"#))
                #expect(html.contains(#"<option value="pt-BR" lang="pt-BR">Português (Brasil)</option>"#))
            }
        }
    }

    @Test("A page or a thing not found is said in the page's language, whichever area's row answers")
    func notFound() async throws {
        let german = Words(.de)
        try await withApp { client in
            let ada = try await client.signedUp()
            let missing: [(String, String)] = [
                ("/profiles/999", german.profilesNoSuchProfile),
                ("/profiles/x", german.profilesNoSuchProfile),
                ("/profiles?page=2", german.profilesNoListPage(page: "2")),
                ("/profiles/999/sit", german.profilesNoSuchProfile),
                ("/history?page=2", german.historyNoListPage(page: "2")),
                ("/history/sessions/999", german.historySessionNotFound),
                ("/friends/999/edit", german.friendsNotFound),
                ("/groups/999", german.groupsNotFound),
                ("/groups/999/sits/1", german.groupsSitNotFound),
                ("/admin?page=2", german.adminNoListPage(page: "2")),
            ]
            for (uri, message) in missing {
                try await ada.execute(uri: uri, method: .get, headers: [.acceptLanguage: "de"]) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(Self.page(response).contains(message), "\(uri)")
                    #expect(message != Words.english.profilesNoSuchProfile)
                }
            }
        }
    }

    @Test("A page number that is not one is refused (400) in the page's language")
    func badPageNumber() async throws {
        let german = Words(.de)
        #expect(german.commonPageNotANumber != Words.english.commonPageNotANumber)
        try await withApp { client in
            let ada = try await client.signedUp()
            for uri in ["/history?page=x", "/profiles?page=0", "/admin?page=1.5", "/friends?page=-1"] {
                try await ada.execute(uri: uri, method: .get, headers: [.acceptLanguage: "de"]) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(Self.page(response).contains(german.commonPageNotANumber), "\(uri)")
                }
            }
        }
    }

    @Test("The error pages' own words are in the page's language: a wrong method, an address not UTF-8, a 422's title")
    func errorPagesInTheLanguage() async throws {
        let german = Words(.de)
        let method = german.errorMethodNotAllowedDetail(method: "PUT")
        #expect(method != Words.english.errorMethodNotAllowedDetail(method: "PUT"))
        let germanForm: HTTPFields = {
            var headers = FormPost.headers()
            headers[.acceptLanguage] = "de"
            return headers
        }()
        try await withApp { client in
            let ada = try await client.signedUp()
            try await ada.execute(
                uri: "/profiles", method: .put, headers: germanForm,
                body: FormPost.body("")
            ) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(Self.page(response).contains(german.errorMethodNotAllowed))
                #expect(Self.page(response).contains(method))
            }
            // What a form's or a query's reader finds, too.
            try await ada.execute(
                uri: "/profiles", method: .post, headers: germanForm, body: FormPost.body("name=%ff")
            ) { response in
                #expect(response.status == .badRequest)
                #expect(Self.page(response).contains(german.errorFormNotUtf8))
            }
            try await ada.execute(uri: "/friends?q=%zz%", method: .get, headers: [.acceptLanguage: "de"]) {
                response in
                #expect(response.status == .badRequest)
                #expect(Self.page(response).contains(german.errorQueryUnreadable), "\(Self.page(response))")
            }
            for uri in ["/friends?q=%ff", "/profiles/%ff"] {
                try await ada.execute(uri: uri, method: .get, headers: [.acceptLanguage: "de"]) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(Self.page(response).contains(german.errorAddressNotUtf8), "\(uri)")
                }
            }
            try await ada.execute(
                uri: "/language", method: .post, headers: germanForm,
                body: FormPost.body("lang=xx&next=%2F")
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(Self.page(response).contains("<title>\(german.errorUnprocessableContent)"))
            }
        }
    }

    @Test("/me in German: the Practice section's profile links and the Friends section too")
    func meInGerman() async throws {
        let german = Words(.de)
        #expect(german.homeManageProfiles != Words.english.homeManageProfiles)
        try await withApp { client in
            let ada = try await client.signedUp()
            try await ada.post("/profiles", form: "name=Morning") { #expect($0.status == .seeOther) }
            try await ada.execute(uri: "/me", method: .get, headers: [.acceptLanguage: "de"]) { response in
                #expect(response.status == .ok)
                let page = Self.page(response)
                #expect(page.contains(german.homeManageProfiles))
                #expect(!page.contains(Words.english.homeManageProfiles))
            }
        }
    }

    @Test("Too many open group pages: the 429 in the page's language")
    func tooManyGroupPages() async throws {
        let german = Words(.de)
        #expect(german.groupsTooManyPages != Words.english.groupsTooManyPages)
        let dependencies = try TestDependencies.make()
        let renderer = PageRenderer.compiled(signer: dependencies.signer)
        let streams = GroupStreams(dependencies: dependencies, renderer: renderer, logger: Logger(label: "test"))
        let router = try buildRouter(
            configuration: .testing, dependencies: dependencies, renderer: renderer, streams: streams)
        try await Application(router: router).test(.router) { client in
            let ada = try await client.signedUp()
            try await ada.post("/groups", form: "name=Morning+sangha") { #expect($0.status == .seeOther) }
            // Ada's other pages of the group, open elsewhere: as many as one person may hold.
            let open = (0..<GroupStreams.limitPerPerson).compactMap { _ in
                streams.open(person: 1, group: 1, session: "elsewhere")
            }
            #expect(open.count == GroupStreams.limitPerPerson)
            try await ada.execute(uri: "/groups/1/events", method: .get, headers: [.acceptLanguage: "de"]) {
                response in
                #expect(response.status == .tooManyRequests)
                #expect(Self.page(response).contains(german.groupsTooManyPages))
            }
            for stream in open { stream.end() }
        }
    }

    @Test(
        "On an Arabic page a name is in <bdi> in the text and isolated in an attribute; an English page has neither"
    )
    func namesSetApart() async throws {
        try await withApp { client in
            let ada = try await client.signedUp()
            _ = try await client.signedUp(username: "bob", name: "Bob Brown")
            try await ada.post("/groups", form: "name=Morning+sangha") { #expect($0.status == .seeOther) }
            try await ada.execute(uri: "/groups/1", method: .get, headers: [.acceptLanguage: "ar"]) { response in
                let html = Self.page(response)
                #expect(html.contains(#"<html lang="ar" dir="rtl">"#))
                #expect(html.contains("<h1><bdi>Morning sangha</bdi></h1>"))
                #expect(html.contains("<span class=\"item-name\"><bdi>Ada Lovelace</bdi> <span"))
                // The navigation's name: a link of its own.
                #expect(html.contains("><bdi>Ada Lovelace</bdi></a>"))
            }
            try await ada.execute(uri: "/admin", method: .get, headers: [.acceptLanguage: "ar"]) { response in
                let html = Self.page(response)
                #expect(html.contains("<span class=\"item-name\"><bdi>Bob Brown</bdi> <span"))
                // A screen reader's label of Bob's buttons: the isolates as characters, never markup.
                #expect(html.contains("\u{2068}Bob Brown\u{2069}\""))
                #expect(html.range(of: #"="[^"]*<bdi>"#, options: .regularExpression) == nil)
            }
            for uri in ["/groups/1", "/admin"] {
                try await ada.execute(uri: uri, method: .get) { response in
                    let html = Self.page(response)
                    #expect(html.contains(#"<html lang="en" dir="ltr">"#))
                    #expect(!html.contains("<bdi>") && !html.contains("\u{2068}"), "\(uri)")
                    #expect(html.contains("Bob Brown") || uri == "/groups/1")
                }
            }
        }
    }

    @Test("The picker sets the lang cookie and comes back; the cookie outweighs the browser")
    func picker() async throws {
        try await withApp { client in
            let cookie = try await client.post("/language", form: "lang=fr&next=%2Fsign-up%3Fnext%3D%252Fgroups") {
                response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/sign-up?next=%2Fgroups")
                let set = response.headers[values: .setCookie].first { $0.hasPrefix("lang=") }
                #expect(set?.hasPrefix("lang=fr;") == true)
                #expect(set?.contains("Max-Age=31536000") == true)
                return set?.split(separator: ";").first.map(String.init) ?? ""
            }
            try await client.execute(
                uri: "/sign-in", method: .get, headers: [.acceptLanguage: "de", .cookie: cookie]
            ) { response in
                #expect(response.headers[.contentLanguage] == "fr")
                #expect(!response.headers[values: .vary].contains("Accept-Language"))
                #expect(Self.page(response).contains("<h1>\(Words(.fr).signInTitle)</h1>"))
            }
        }
    }

    @Test("The picker refuses a language Sangha does not speak, and never leads off the site")
    func pickerRefuses() async throws {
        try await withApp { client in
            try await client.post("/language", form: "lang=xx&next=%2Fsign-in") { response in
                #expect(response.status == .unprocessableContent)
                #expect(Self.page(response).contains(Words.english.languageChooseOne))
                #expect(!response.headers[values: .setCookie].contains { $0.hasPrefix("lang=") })
            }
            try await client.post("/language", form: "lang=pl&next=https%3A%2F%2Fevil.example%2F") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/")
            }
        }
    }

    @Test("--default-language answers when nothing else names a language Sangha speaks")
    func defaultLanguage() async throws {
        let configuration = AppConfiguration(signUp: .open, defaultLanguage: .pl, addressLimit: 0)
        try await withApp(configuration: configuration) { client in
            for header: HTTPFields in [[:], [.acceptLanguage: "ja, zh;q=0.8"]] {
                try await client.execute(uri: "/sign-in", method: .get, headers: header) { response in
                    #expect(response.headers[.contentLanguage] == "pl")
                    #expect(Self.page(response).contains(#"<html lang="pl" dir="ltr">"#))
                }
            }
        }
    }

    @Test("A person's Language in Settings comes first on every page, and As my browser says gives it back")
    func personsChoice() async throws {
        try await withSignedInApp { ada in
            try await ada.execute(uri: "/settings", method: .get, headers: [.acceptLanguage: "de"]) { response in
                let html = Self.page(response)
                #expect(html.contains(#"<option value="" selected>\#(Words(.de).settingsLanguageBrowser)</option>"#))
                #expect(html.contains(#"<option value="vi" lang="vi">Tiếng Việt</option>"#))
            }
            try await ada.post("/settings", form: "name=Ada+Lovelace&language=vi") { #expect($0.status == .seeOther) }
            for uri in ["/", "/settings"] {
                try await ada.execute(uri: uri, method: .get, headers: [.acceptLanguage: "de"]) { response in
                    #expect(response.headers[.contentLanguage] == "vi", "\(uri)")
                    #expect(!response.headers[values: .vary].contains("Accept-Language"), "\(uri)")
                    #expect(Self.page(response).contains(#"<html lang="vi" dir="ltr">"#), "\(uri)")
                }
            }
            try await ada.execute(uri: "/settings", method: .get) { response in
                #expect(Self.page(response).contains(#"<option value="vi" lang="vi" selected>Tiếng Việt</option>"#))
            }
            // A post without the menu (not the page's), or with a language not offered, keeps it.
            try await ada.post("/settings", form: "name=Ada+Lovelace") { #expect($0.status == .seeOther) }
            try await ada.post("/settings", form: "name=Ada+Lovelace&language=tlh") { #expect($0.status == .seeOther) }
            try await ada.execute(uri: "/", method: .get) { #expect($0.headers[.contentLanguage] == "vi") }
            try await ada.post("/settings", form: "name=Ada+Lovelace&language=") { #expect($0.status == .seeOther) }
            try await ada.execute(uri: "/", method: .get, headers: [.acceptLanguage: "de"]) {
                #expect($0.headers[.contentLanguage] == "de")
            }
        }
    }
}
