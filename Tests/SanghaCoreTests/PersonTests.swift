import Foundation
import SanghaCore
import Testing

@Suite("A person's rules")
struct PersonTests {
    @Test("Names, profile and group names refuse control characters; About keeps its lines and refuses the rest")
    func controlCharacters() {
        #expect(Person.nameRefusal("Ada\u{0}Lovelace") == "A name cannot contain control characters.")
        #expect(Person.nameRefusal("Ada Lovelace") == nil)
        #expect(Profile.validateName("Morning\u{7}", words: .english) == "Name cannot contain control characters.")
        #expect(Profile.validateName("Morning sit", words: .english) == nil)
        #expect(
            SittingGroup.validateName("Morning\u{0}sangha", words: .english)
                == "Name cannot contain control characters.")
        #expect(
            SittingGroup.validateName(String(repeating: "a", count: 61), words: .english)
                == "Name must be at most 60 characters.")
        #expect(SittingGroup.validateName(" Morning sangha ", words: .english) == nil)
        #expect(Person.aboutRefusal("Sits before sunrise.\nCounts breaths.\r\n\tAgain.") == nil)
        #expect(Person.aboutRefusal("Cut\u{0}short") == "About cannot contain control characters.")
        // Format characters are text: the joiner of 🧘‍♀️, the non-joiner of Persian, a soft hyphen.
        #expect(Person.aboutRefusal("🧘‍♀️ every morning") == nil)
        #expect(Person.nameRefusal("می\u{200C}خواهم") == nil)
        #expect(Profile.validateName("Morning 🧘‍♀️ sit\u{AD}ting", words: .english) == nil)
        #expect(Person.nameRefusal("Ad\u{85}a") == "A name cannot contain control characters.")
        #expect(Person.aboutRefusal("Bell\u{1B}[31m") == "About cannot contain control characters.")
        #expect(
            Person.aboutRefusal(String(repeating: "a", count: Person.aboutLengthLimit + 1))
                == "About is at most \(Person.aboutLengthLimit) characters.")
    }

    @Test(
        "Names, profile and group names refuse what turns the text's direction (U+202E spoofs a name), and keep the marks of right-to-left text"
    )
    func directionOverrides() {
        let turning = "A name cannot contain characters that turn the text's direction."
        #expect(Person.nameRefusal("Ada\u{202E}nimda") == turning)
        #expect(Person.nameRefusal("\u{2067}Ada\u{2069}") == turning)
        #expect(
            Profile.validateName("Morning\u{202D}", words: .english)
                == "Name cannot contain characters that turn the text's direction.")
        #expect(
            SittingGroup.validateName("\u{202B}Sangha", words: .english)
                == "Name cannot contain characters that turn the text's direction.")
        #expect(Person.nameRefusal("שרה\u{200F} Cohen") == nil)
        #expect(SittingGroup.validateName("سنگها\u{061C} 2", words: .english) == nil)
    }

    @Test("A group's name is refused in the group's words, wherever it is checked: its form and an import's line")
    func groupNameWords() {
        let french = Words(.fr)
        let long = String(repeating: "a", count: SittingGroup.nameLengthLimit + 1)
        let groups = french.groupsNameTooLong(SittingGroup.nameLengthLimit)
        #expect(groups != Profile.validateName(long, words: french), "the two messages differ in French")
        #expect(SittingGroup.validateName(long, words: french) == groups)
        let line = "2026-11-10T06:30:00Z,60,Evening,completed,\(long),"
        let read = PracticeLogImport.read(
            PracticeLogExport.csvHeader + line + "\n", now: Date(timeIntervalSince1970: 1_800_000_000), words: french)
        #expect(read.sessions.isEmpty)
        #expect(read.problems.count == 1 && read.problems[0].contains(groups), "\(read.problems)")
    }

    @Test("A password equal to the username, whatever the case, is refused; the other rules still hold")
    func passwordIsNotTheUsername() {
        #expect(
            Person.passwordRefusal("longusername", username: "LongUserName") == "A password cannot be your username.")
        #expect(Person.passwordRefusal("longusername!", username: "longusername") == nil)
        #expect(Person.passwordRefusal("short", username: "ada") == Person.passwordRefusal("short"))
        #expect(Person.passwordRefusal("correct horse battery", username: "") == nil)
    }
}
