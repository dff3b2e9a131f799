import SanghaCore
import Testing

@Suite("Profile rules")
struct ProfileTests {
    @Test("A new profile lasts 07:30, with Warm Up and Cool Down off at 05:00 each")
    func newProfile() {
        let profile = Profile.new(named: "Morning")
        #expect(profile.duration == 450)
        #expect(profile[.warmUp].enabled == false)
        #expect(profile[.warmUp].duration == 300)
        #expect(profile[.coolDown].enabled == false)
        #expect(profile[.coolDown].duration == 300)
        #expect(profile.segments.map(\.type) == [.main, .warmUp, .coolDown])
        #expect(profile[.warmUp].sounds.map(\.type) == [.begin, .end, .repeat])
        #expect(profile.validationErrors(words: .english).isEmpty)
    }

    @Test("The session's total counts the warm-up and cool-down only when on")
    func total() {
        var profile = Profile.new(named: "Morning")
        #expect(profile.totalDuration == 450)
        profile[.warmUp].enabled = true
        #expect(profile.totalDuration == 750)
        profile[.coolDown].enabled = true
        profile[.coolDown].duration = 60
        #expect(profile.totalDuration == 810)
    }

    @Test(
        "Durations run from 1 second to 24 hours",
        arguments: [(0, false), (1, true), (86_400, true), (86_401, false), (-5, false)])
    func durationRange(seconds: Int, valid: Bool) {
        var profile = Profile.new(named: "Morning")
        profile.duration = seconds
        #expect(
            profile.validationErrors(words: .english)[.duration(.main)]
                == (valid ? nil : "Duration must be between 00:01 and 24:00:00."))
    }

    @Test("A repeating sound's interval is no longer than its segment")
    func interval() {
        var profile = Profile.new(named: "Morning")
        profile[.warmUp][sound: .repeat].enabled = true
        profile[.warmUp][sound: .repeat].interval = 300
        #expect(profile.validationErrors(words: .english).isEmpty)
        profile[.warmUp][sound: .repeat].interval = 301
        #expect(profile.validationErrors(words: .english)[.interval(.warmUp)] != nil)
        profile[.warmUp][sound: .repeat].interval = 0
        #expect(profile.validationErrors(words: .english)[.interval(.warmUp)] != nil)
        // A switched-off repeating sound is not checked.
        profile[.warmUp][sound: .repeat].enabled = false
        #expect(profile.validationErrors(words: .english).isEmpty)
    }

    @Test("Names are 1–60 characters; sounds come from the catalogue")
    func nameAndSound() {
        var profile = Profile.new(named: String(repeating: "a", count: 60))
        #expect(profile.validationErrors(words: .english).isEmpty)
        profile.name = String(repeating: "a", count: 61)
        #expect(profile.validationErrors(words: .english)[.name] == "Name must be at most 60 characters.")
        profile.name = "  "
        #expect(profile.validationErrors(words: .english)[.name] == "Name is required.")
        profile.name = "Morning"
        profile[.coolDown][sound: .begin].name = "Airhorn"
        #expect(
            profile.validationErrors(words: .english)[.soundName(.coolDown, .begin)]
                == "Choose one of the sounds offered.")
    }
}

@Suite("Sound catalogue")
struct SoundCatalogueTests {
    @Test("Each sound's file is its name in lower case, words joined by dashes, served under /sounds/")
    func fileNames() {
        #expect(
            SoundCatalogue.names.map(SoundCatalogue.fileName(of:)) == [
                "bell.mp3", "bowl.mp3", "gong.mp3", "chime.mp3", "wood-block.mp3",
            ])
        #expect(SoundCatalogue.path(of: "Wood Block") == "/sounds/wood-block.mp3")
    }
}
