import SanghaViewModels
import Testing

@Suite("Duration formatter")
struct DurationFormatterTests {
    @Test(
        "mm:ss below an hour, hh:mm:ss from an hour",
        arguments: [
            (0, "00:00"), (59, "00:59"), (60, "01:00"), (450, "07:30"), (3599, "59:59"), (3600, "01:00:00"),
            (5400, "01:30:00"), (86_400, "24:00:00"), (-5, "00:00"), (36_000, "10:00:00"), (360_000, "100:00:00"),
        ]
    )
    func format(seconds: Int, text: String) {
        #expect(DurationFormatter.string(from: seconds) == text)
    }

    @Test(
        "Reads mm:ss, h:mm:ss and whole minutes",
        arguments: [
            ("07:30", 450), ("7:30", 450), ("0:59", 59), ("00:01", 1), ("90", 5400), ("0", 0), (" 5 ", 300),
            ("1:30:00", 5400), ("24:00:00", 86_400), ("75:00", 4500), ("59:59", 3599),
        ]
    )
    func parse(text: String, seconds: Int) {
        #expect(DurationFormatter.seconds(from: text) == seconds)
    }

    @Test(
        "Anything else is not a duration",
        arguments: [
            "", " ", "abc", "7m", "1:60", "1:60:00", "1:00:60", "1:2:3:4", "-5", "1.5", "07:3a", "::", ":30", "7:",
            "１２",
        ]
    )
    func reject(text: String) {
        #expect(DurationFormatter.seconds(from: text) == nil)
    }

    @Test("Formatting then reading gives the same seconds", arguments: [1, 59, 60, 450, 3599, 3600, 5400, 86_400])
    func roundTrip(seconds: Int) {
        #expect(DurationFormatter.seconds(from: DurationFormatter.string(from: seconds)) == seconds)
    }

    @Test("The message for a bad duration")
    func message() {
        #expect(DurationFormatter.parseFailureMessage == "Enter a duration like 07:30")
    }
}
