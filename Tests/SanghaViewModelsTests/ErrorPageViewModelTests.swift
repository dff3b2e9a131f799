import SanghaViewModels
import Testing

@Suite("Error page view model")
struct ErrorPageViewModelTests {
    @Test(
        "Each status has Sangha's words; others are headed by their reason phrase",
        arguments: [
            (404, "Not Found", "Page not found", "There is no page at this address."),
            (413, "Content Too Large", "Too much data", "The form sent more data than Sangha accepts."),
            (400, "Bad Request", "Bad request", "Sangha could not read what the browser sent."),
            (
                500, "Internal Server Error", "Internal Server Error",
                "Something went wrong on our side. Please try again."
            ),
        ]
    )
    func wording(status: Int, reasonPhrase: String, heading: String, message: String) {
        let page = ErrorPageViewModel(status: status, reasonPhrase: reasonPhrase, message: nil, context: .fixture)
        #expect(page.status == status)
        #expect(page.heading == heading)
        #expect(page.message == message)
        #expect(page.layout.title == heading)
    }

    @Test("A message from the failure replaces the usual one")
    func message() {
        let page = ErrorPageViewModel(
            status: 400, reasonPhrase: "Bad Request", message: "The form is not UTF-8.", context: .fixture)
        #expect(page.heading == "Bad request")
        #expect(page.message == "The form is not UTF-8.")
    }
}
