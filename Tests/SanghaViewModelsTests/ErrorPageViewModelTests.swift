import SanghaFixtures
import SanghaViewModels
import Testing

@Suite("Error page view model")
struct ErrorPageViewModelTests {
    @Test(
        "Each kind has Sangha's words; others are headed by their reason phrase",
        arguments: [
            (ErrorPageViewModel.Kind.notFound, "Page not found", "There is no page at this address."),
            (.contentTooLarge, "Too much data", "The form sent more data than Sangha accepts."),
            (.badRequest, "Bad request", "Sangha could not read what the browser sent."),
            (
                .signInRequired, "Sign in to continue",
                "You are not signed in, or your session has ended. Nothing was changed."
            ),
            (
                .other(reasonPhrase: "Internal Server Error"), "Internal Server Error",
                "Something went wrong on our side. Please try again."
            ),
        ]
    )
    func wording(kind: ErrorPageViewModel.Kind, heading: String, message: String) {
        let page = ErrorPageViewModel(kind, message: nil, context: .fixture)
        #expect(page.heading == heading)
        #expect(page.message == message)
        #expect(page.layout.title == heading)
    }

    @Test("A message from the failure replaces the usual one")
    func message() {
        let page = ErrorPageViewModel(.badRequest, message: "The form is not UTF-8.", context: .fixture)
        #expect(page.heading == "Bad request")
        #expect(page.message == "The form is not UTF-8.")
    }

    @Test("Only a signed-out person asked to sign in is sent to the sign-in page; everyone else goes home")
    func link() {
        #expect(ErrorPageViewModel(.signInRequired, message: nil, context: .signedOutFixture).link.url == "/sign-in")
        #expect(ErrorPageViewModel(.notFound, message: nil, context: .signedOutFixture).link.url == "/")
        #expect(ErrorPageViewModel(.signInRequired, message: nil, context: .fixture).link.url == "/")
    }
}
