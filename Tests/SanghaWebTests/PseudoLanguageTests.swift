import Foundation
import Hummingbird
import SanghaCore
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// The pseudo-language (`en-XA`: English accented, a third longer, in brackets) finds a text
/// that skipped the catalog: on a page rendered in it, any letters outside brackets were
/// written in English somewhere other than `Languages/sangha.pot`.
///
/// The pages whose every text is in the catalog so far: the sign-in and sign-up pages (with an
/// identity provider, and in each of their states) and the layout's navigation.
@Suite("The pseudo-language")
struct PseudoLanguageTests {
    /// What stays as it is in every language: the product's name, the separator of the title,
    /// and the languages' own names in the picker.
    static let untranslated = ["Sangha", "·"] + Language.shipped.map(\.nativeName)

    static var context: PageContext {
        var context = PageContext(formToken: "token", now: Date(timeIntervalSince1970: 1_795_000_000), timeZone: .gmt)
        context.language = .pseudo
        context.signInProvider = "Pocket ID"
        return context
    }

    /// The texts of a page a person reads or hears: its text nodes, and the attributes a screen
    /// reader or the script says (`aria-label`, `placeholder`, `title`, `alt`, `data-…`
    /// messages).
    static func texts(_ html: String) -> [String] {
        var texts: [String] = []
        // A name's <bdi> is part of the sentence around it: read without it, as a person reads.
        let body = html.replacingOccurrences(of: #"<script[\s\S]*?</script>"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "<bdi>", with: "").replacingOccurrences(of: "</bdi>", with: "")
        for pattern in [#">([^<>]+)<"#, #"\s(?:aria-label|placeholder|title|alt|data-offline|data-failed)="([^"]*)""#] {
            let expression = try! NSRegularExpression(pattern: pattern)
            for match in expression.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
                if let range = Range(match.range(at: 1), in: body) { texts.append(String(body[range])) }
            }
        }
        return texts
    }

    /// The letters of `text` outside brackets, once the names that stay are taken out.
    static func skipped(_ text: String) -> String? {
        var rest = text.replacingOccurrences(of: #"\[[^\]]*\]"#, with: "", options: .regularExpression)
        for name in untranslated { rest = rest.replacingOccurrences(of: name, with: "") }
        rest = rest.trimmingCharacters(in: .whitespacesAndNewlines)
        return rest.contains(where: \.isLetter) ? rest : nil
    }

    static func skippedTexts(_ page: some Page) -> [String] {
        texts(String(buffer: page.compiledHTMLBuffer())).compactMap(skipped)
    }

    @Test("The sign-in page says everything through the catalog")
    func signIn() {
        let pages = [
            SignInViewModel(context: Self.context),
            SignInViewModel(
                context: Self.context, username: "ada", errors: [.password: Self.context.words.signInEnterPassword],
                alert: AlertViewModel(
                    title: Self.context.words.signInCouldNot, message: Self.context.words.signInWrongCredentials)),
        ]
        for page in pages {
            #expect(Self.skippedTexts(page) == [])
            #expect(String(buffer: page.compiledHTMLBuffer()).contains(#"<html lang="en-XA" dir="ltr">"#))
        }
    }

    @Test("The sign-up page says everything through the catalog, open, needing an invitation and closed")
    func signUp() {
        let words = Self.context.words
        for page in [
            SignUpViewModel(context: Self.context),
            SignUpViewModel(context: Self.context, alert: SignUpViewModel.invitationNeeded(words), isOpen: false),
            SignUpViewModel(context: Self.context, alert: SignUpViewModel.closed(words), isOpen: false),
        ] {
            #expect(Self.skippedTexts(page) == [])
        }
    }

    @Test("The navigation of someone signed in says everything through the catalog")
    func navigation() throws {
        var context = Self.context
        context.signIn(Person(id: 1, username: "ada", name: "Ada", createdAt: context.now, isAdministrator: true))
        let layout = LayoutViewModel(title: "x", section: .home, context: context)
        let account = try #require(layout.account)
        let labels =
            account.navigation.map(\.label) + [
                account.navigationLabel, account.settingsLabel, account.signOutLabel, account.signOutOfflineText,
                account.signOutFailedText, layout.skipLinkLabel,
            ]
        #expect(account.navigation.count == 6)
        #expect(labels.compactMap(Self.skipped) == [])
    }

    @Test("A page gives the service worker its offline line in its language; an English page, none")
    func offlineNotice() throws {
        let notice = try #require(LayoutViewModel(title: "x", section: nil, context: Self.context).offlineNotice)
        #expect(Self.skipped(notice) == nil && notice.contains("{time}"))
        var context = Self.context
        context.language = .de
        let german = String(buffer: SignInViewModel(context: context).compiledHTMLBuffer())
        #expect(
            german.contains(#"<meta name="sangha-offline" content="Du bist offline. Diese Seite ist von {time}.">"#))
        context.language = .en
        let english = String(buffer: SignInViewModel(context: context).compiledHTMLBuffer())
        #expect(!english.contains("sangha-offline"))
    }

    @Test("A text outside the catalog is found")
    func finds() {
        #expect(Self.skipped("[Šîĝñ îñ···] now") == "now")
        #expect(Self.texts(#"<p title="Hello">[Ĥéļļô··]</p>"#).compactMap(Self.skipped) == ["Hello"])
    }
}
