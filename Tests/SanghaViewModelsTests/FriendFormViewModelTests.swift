import SanghaCore
import SanghaFixtures
import SanghaTestSupport
import SanghaViewModels
import Testing

@Suite("Friend form view model")
struct FriendFormViewModelTests {
    let janeInput = FriendFormInput(firstname: " Jane ", lastname: "Doe", phonenumber: "+1 555-0100")

    @Test("The blank add form has the three labelled fields and the Add friend button")
    func blank() {
        let form = FriendFormViewModel(mode: .add, context: .fixture)
        #expect(form.heading == "Add friend")
        #expect(form.submitLabel == "Add friend")
        #expect(form.actionURL == "/friends")
        #expect(form.fields.map(\.label) == ["First name", "Last name", "Phone number"])
        #expect(form.fields.allSatisfy { $0.value.isEmpty && $0.error == nil && !$0.hasError })
        #expect(form.alert == nil)
    }

    @Test("Adding sends the cleaned values and leads to the list with a flash")
    func addSaved() async {
        let service = FakeFriendService(add: { draft in
            #expect(draft == FriendDraft(firstname: "Jane", lastname: "Doe", phonenumber: "+15550100"))
            return Friend(id: 7, firstname: draft.firstname, lastname: draft.lastname, phonenumber: draft.phonenumber)
        })
        let outcome = await FriendFormViewModel.submit(janeInput, mode: .add, to: service, context: .fixture)
        #expect(outcome == .redirect(Redirect(to: "/friends", flash: .success("Added Jane Doe."))))
        #expect(service.recordedCalls == ["addFriend"])
    }

    @Test("Updating sends the values for that id")
    func updateSaved() async {
        let service = FakeFriendService(update: { id, draft in
            #expect(id == 1)
            return Friend(id: id, firstname: draft.firstname, lastname: draft.lastname, phonenumber: draft.phonenumber)
        })
        let outcome = await FriendFormViewModel.submit(janeInput, mode: .update(id: 1), to: service, context: .fixture)
        #expect(outcome == .redirect(Redirect(to: "/friends", flash: .success("Saved Jane Doe."))))
    }

    @Test("Invalid input: messages next to their fields, typed values kept, nothing sent")
    func invalid() async {
        let service = FakeFriendService()
        let input = FriendFormInput(firstname: "J4ne", lastname: nil, phonenumber: "12")
        guard
            case .invalid(let form) = await FriendFormViewModel.submit(
                input, mode: .add, to: service, context: .fixture)
        else {
            Issue.record("expected .invalid")
            return
        }
        #expect(form.fields.map(\.value) == ["J4ne", "", "12"])
        #expect(
            form.fields.map(\.error) == [
                "First name may contain only letters, spaces, hyphens and apostrophes.",
                "Last name is required.",
                "Phone number must be 3 to 20 digits, optionally starting with +.",
            ]
        )
        #expect(form.fields.map(\.hasError) == [true, true, true])
        #expect(service.recordedCalls.isEmpty)
    }

    @Test(
        "A failed add shows the alert for its reason and keeps the input",
        arguments: [
            (FriendServiceError.Reason.unauthorized, "Please login to add friends."),
            (.notFound, "Failed to add friend. Please try again."),
            (.server(status: 500), "Could not connect to server. Check your network and try again later."),
            (.transport("refused"), "Could not connect to server. Check your network and try again later."),
            (.decoding("garbage"), "Could not connect to server. Check your network and try again later."),
        ]
    )
    func addFailed(reason: FriendServiceError.Reason, message: String) async {
        let outcome = await FriendFormViewModel.submit(
            janeInput, mode: .add, to: FakeFriendService.failing(reason), context: .fixture)
        guard case .failed(let form, let failure) = outcome else {
            Issue.record("expected .failed, got \(outcome)")
            return
        }
        #expect(form.alert == AlertViewModel(title: "Could not add Jane Doe.", message: message))
        #expect(failure == (reason == .notFound ? .notFound : .remoteService))
        #expect(form.fields.map(\.value) == [" Jane ", "Doe", "+1 555-0100"])
    }

    @Test(
        "A failed update shows the alert for its reason",
        arguments: [
            (FriendServiceError.Reason.unauthorized, "Please login to update friends."),
            (.notFound, "Failed to update friend. Please try again."),
            (.server(status: 502), "Could not connect to server. Check your network and try again later."),
            (.transport("timed out"), "Could not connect to server. Check your network and try again later."),
        ]
    )
    func updateFailed(reason: FriendServiceError.Reason, message: String) async {
        let outcome = await FriendFormViewModel.submit(
            janeInput, mode: .update(id: 1), to: FakeFriendService.failing(reason), context: .fixture)
        guard case .failed(let form, let failure) = outcome else {
            Issue.record("expected .failed, got \(outcome)")
            return
        }
        #expect(failure == (reason == .notFound ? .notFound : .remoteService))
        #expect(form.alert == AlertViewModel(title: "Failed to update information.", message: message))
        #expect(form.submitLabel == "Save")
        #expect(form.actionURL == "/friends/1")
    }

    @Test("A 400 from the service shows its reason by the form, values kept, as invalid")
    func serviceRefused() async {
        let service = FakeFriendService.failing(.invalid("Phone number already taken."))
        guard
            case .invalid(let form) = await FriendFormViewModel.submit(
                janeInput, mode: .add, to: service, context: .fixture)
        else {
            Issue.record("expected .invalid")
            return
        }
        #expect(form.alert == AlertViewModel(title: "Could not add Jane Doe.", message: "Phone number already taken."))
        #expect(form.fields.map(\.value) == [" Jane ", "Doe", "+1 555-0100"])
    }

    @Test("The edit form is filled from the stored friend")
    func loadEdit() async {
        let page = await FriendFormViewModel.loadEdit(
            id: 2, from: FakeFriendService.listing([.jane, .kenji]), context: .fixture)
        guard case .page(let form) = page else {
            Issue.record("expected the form, got \(page)")
            return
        }
        #expect(form.fields.map(\.value) == ["Kenji", "Satō", "0312345678"])
        #expect(form.heading == "Edit friend")
    }

    @Test("Editing an unknown id is not found; a failed load names the load message")
    func loadEditMissing() async {
        #expect(
            await FriendFormViewModel.loadEdit(id: 9, from: FakeFriendService.listing([.jane]), context: .fixture)
                == .notFound)
        let failed = await FriendFormViewModel.loadEdit(
            id: 1, from: FakeFriendService.failing(.unauthorized), context: .fixture)
        guard case .failed(let page, .remoteService) = failed else {
            Issue.record("expected .failed")
            return
        }
        #expect(page.message == "Please login to load your friends.")
        #expect(page.heading == "Could not load this friend")
    }
}

@Suite("Removing a friend")
struct FriendDeletionTests {
    @Test("A removed friend leads back to the list with a success flash")
    func removed() async {
        let service = FakeFriendService(delete: { id in #expect(id == 1) })
        let outcome = await FriendDeletion.submit(id: 1, fullName: "Jane Doe", to: service, words: .english)
        #expect(outcome.url == "/friends")
        #expect(outcome.flash == .success("Removed Jane Doe."))
    }

    @Test(
        "A failed removal names the friend and the reason",
        arguments: [
            (FriendServiceError.Reason.unauthorized, "Please login to remove friends."),
            (.notFound, "Friend not found."),
            (.server(status: 500), "Could not connect to server. Check your network and try again later."),
            (.transport("down"), "Could not connect to server. Check your network and try again later."),
        ]
    )
    func failed(reason: FriendServiceError.Reason, message: String) async {
        let outcome = await FriendDeletion.submit(
            id: 1, fullName: "Jane Doe", to: FakeFriendService.failing(reason), words: .english)
        #expect(outcome.flash == .error(title: "Could not remove Jane Doe.", message: message))
    }
}
