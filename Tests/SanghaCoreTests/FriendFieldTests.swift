import SanghaCore
import Testing

@Suite("Friend field rules")
struct FriendFieldTests {
    @Test(
        "Names in any script, with spaces, hyphens and apostrophes, are valid",
        arguments: ["Jane", "Anne-Marie", "O'Neil", "Mary Jo", "Zoë", "Łukasz", "Сергей", "山田", "محمد", "नमस्ते", "A"]
    )
    func validNames(name: String) {
        #expect(FriendField.firstname.validate(name) == nil)
        #expect(FriendField.lastname.validate(name) == nil)
    }

    @Test("An empty or blank name is required")
    func emptyName() {
        #expect(FriendField.firstname.validate("") == "First name is required.")
        #expect(FriendField.lastname.validate("   ") == "Last name is required.")
    }

    @Test("Digits, symbols and markup are not names", arguments: ["J4ne", "Jane!", "<b>", "a_b", "Jane\u{0}"])
    func invalidNames(name: String) {
        #expect(
            FriendField.firstname.validate(name)
                == "First name may contain only letters, spaces, hyphens and apostrophes."
        )
    }

    @Test("A name is at most 50 characters")
    func nameLength() {
        #expect(FriendField.firstname.validate(String(repeating: "a", count: 50)) == nil)
        #expect(
            FriendField.firstname.validate(String(repeating: "a", count: 51))
                == "First name must be at most 50 characters."
        )
    }

    @Test(
        "Phone numbers: 3–20 digits after an optional +",
        arguments: ["123", "+123", "0312345678", String(repeating: "9", count: 20)])
    func validPhoneNumbers(number: String) {
        #expect(FriendField.phonenumber.validate(number) == nil)
    }

    @Test(
        "Anything else is not a phone number",
        arguments: ["12", "+", "++123", "12a45", "555 0100", "+1-555", String(repeating: "9", count: 21), "١٢٣"]
    )
    func invalidPhoneNumbers(number: String) {
        #expect(
            FriendField.phonenumber.validate(number)
                == "Phone number must be 3 to 20 digits, optionally starting with +.")
    }

    @Test("A missing phone number is required")
    func emptyPhoneNumber() {
        #expect(FriendField.phonenumber.validate("") == "Phone number is required.")
    }

    @Test("A draft lists each broken field once")
    func draftErrors() {
        let draft = FriendDraft(firstname: "", lastname: "Doe", phonenumber: "x")
        #expect(
            draft.validationErrors() == [
                .firstname: "First name is required.",
                .phonenumber: "Phone number must be 3 to 20 digits, optionally starting with +.",
            ]
        )
        #expect(FriendDraft(firstname: "Jane", lastname: "Doe", phonenumber: "+1555").validationErrors().isEmpty)
    }
}
