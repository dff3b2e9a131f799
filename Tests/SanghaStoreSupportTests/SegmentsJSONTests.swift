import SanghaCore
import SanghaStoreSupport
import Testing

@Suite("Segments as JSON")
struct SegmentsJSONTests {
    @Test("Encoded segments decode to the same, again and again; a text that is not segments is an error")
    func roundTrip() throws {
        var profile = Profile.new(named: "Round trip")
        profile[.warmUp].enabled = true
        profile[.warmUp][sound: .repeat].interval = 45
        let text = try SegmentsJSON.encode(profile.segments)
        #expect(try SegmentsJSON.decode(text) == profile.segments)
        #expect(try SegmentsJSON.decode(text) == profile.segments)  // remembered
        #expect(try SegmentsJSON.decode(SegmentsJSON.encode(Profile.new(named: "Other").segments)) != profile.segments)
        #expect(throws: (any Error).self) { try SegmentsJSON.decode("{\"not\": \"segments\"}") }
    }
}
