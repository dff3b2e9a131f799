import SanghaCore
import SanghaFixtures
import SanghaStore
import SanghaTestSupport
import Testing

@testable import SanghaViewModels

/// A person's profiles on the app's store (SQLite in memory), stored from `profiles`.
func storedProfiles(_ profiles: [Profile] = []) async throws -> any ProfileRepository {
    try await StoredPerson.make(profiles: profiles).profiles
}

/// The same, failing from the start as a broken disk would.
func brokenProfiles(_ profiles: [Profile] = []) async throws -> any ProfileRepository {
    Breakable(try await storedProfiles(profiles), fault: Fault(.storage))
}

@Suite("Profile editor view model")
struct ProfileEditorViewModelTests {
    static func stored() -> Profile {
        var profile = Profile.new(named: "Morning")
        profile.id = 1
        profile.version = 1
        return profile
    }

    @Test("Sections Time, Warm Up, Cool Down in that order; off sections show only their switch")
    func sections() {
        let editor = ProfileEditorViewModel(profile: Self.stored(), context: .fixture)
        #expect(editor.sections.map(\.title) == ["Time", "Warm Up", "Cool Down"])
        let time = editor.sections[0]
        #expect(!time.hasSwitch)
        #expect(time.isOn)
        #expect(time.durationField.value == "07:30")
        #expect(!time.hasSounds)
        for section in editor.sections.dropFirst() {
            #expect(section.hasSwitch)
            #expect(!section.isOn)
            #expect(section.sounds.isEmpty)
        }
        #expect(editor.totalText == "07:30")
        #expect(editor.version == 1)
    }

    @Test("An enabled Warm Up also shows its duration and its three sounds")
    func enabledSection() {
        var profile = Self.stored()
        profile[.warmUp].enabled = true
        let warmUp = ProfileEditorViewModel(profile: profile, context: .fixture).sections[1]
        #expect(warmUp.isOn)
        #expect(warmUp.durationField.value == "05:00")
        #expect(warmUp.sounds.map(\.label) == ["Begin sound", "End sound", "Repeating sound"])
        #expect(warmUp.sounds.map { $0.repetition != nil } == [false, false, true])
        #expect(warmUp.sounds[2].repetition?.interval.value == "01:00")
        #expect(warmUp.sounds[0].options.filter(\.isSelected).map(\.value) == ["Bell"])
    }

    @Test("Saving applies every input form of a duration and leads back with Profile saved.")
    func save() async throws {
        let repository = try await storedProfiles([Self.stored()])
        let input = ProfileFormInput(
            version: 1,
            [.name: "Morning sit", .duration(.main): "1:30:00", .enabled(.warmUp): "on", .enabled(.coolDown): "on"])
        let outcome = await ProfileEditorViewModel.submit(id: 1, input, to: repository, context: .fixture)
        #expect(outcome == .redirect(Redirect(to: "/profiles/1", flash: .success("Profile saved."))))
        let saved = try #require(try await repository.get(id: 1))
        #expect(saved.name == "Morning sit")
        #expect(saved.duration == 5400)
        #expect(saved[.warmUp].enabled)
        #expect(saved[.warmUp].duration == 300)
        #expect(saved.version == 2)

        let details = ProfileFormInput(
            version: 2,
            [
                .name: "Morning sit", .duration(.main): "20",
                .enabled(.warmUp): "on", .duration(.warmUp): "2:30", .soundEnabled(.warmUp, .begin): "on",
                .soundName(.warmUp, .begin): "Gong", .soundEnabled(.warmUp, .repeat): "on",
                .soundName(.warmUp, .repeat): "Bowl", .interval(.warmUp): "0:30", .iterations(.warmUp): "3",
            ])
        _ = await ProfileEditorViewModel.submit(id: 1, details, to: repository, context: .fixture)
        let detailed = try #require(try await repository.get(id: 1))
        #expect(detailed.duration == 1200)
        #expect(detailed[.warmUp].duration == 150)
        #expect(detailed[.warmUp][sound: .begin] == Sound(type: .begin, enabled: true, name: "Gong"))
        #expect(detailed[.warmUp][sound: .end].enabled == false)
        #expect(detailed[.warmUp][sound: .repeat].interval == 30)
        #expect(detailed[.warmUp][sound: .repeat].iterations == 3)
        // Cool Down's details were not on the page: its stored values are kept, and it went off.
        #expect(detailed[.coolDown].duration == 300)
        #expect(!detailed[.coolDown].enabled)
    }

    @Test("Invalid values: each message by its field, every typed value kept, nothing saved")
    func invalid() async throws {
        var profile = Self.stored()
        profile[.warmUp].enabled = true
        let repository = try await storedProfiles([profile])
        let input = ProfileFormInput(
            version: 1,
            [
                .name: "", .duration(.main): "soon", .enabled(.warmUp): "on", .duration(.warmUp): "25:00:00",
                .soundEnabled(.warmUp, .repeat): "on", .interval(.warmUp): "1:00",
            ])
        guard
            case .invalid(let editor) = await ProfileEditorViewModel.submit(
                id: 1, input, to: repository, context: .fixture)
        else {
            Issue.record("expected .invalid")
            return
        }
        #expect(editor.nameField.error == "Name is required.")
        #expect(editor.sections[0].durationField.value == "soon")
        #expect(editor.sections[0].durationField.error == "Enter a duration like 07:30")
        #expect(editor.sections[1].durationField.value == "25:00:00")
        #expect(editor.sections[1].durationField.error == "Duration must be between 00:01 and 24:00:00.")
        #expect(try await repository.get(id: 1)?.version == 1)
    }

    @Test("A save over a newer version is a conflict: values kept, nothing overwritten")
    func conflict() async throws {
        var newer = Self.stored()
        newer.version = 2
        newer.name = "Changed elsewhere"
        let repository = try await storedProfiles([newer])
        let input = ProfileFormInput(version: 1, [.name: "Mine", .duration(.main): "10:00"])
        guard
            case .conflict(let editor) = await ProfileEditorViewModel.submit(
                id: 1, input, to: repository, context: .fixture)
        else {
            Issue.record("expected .conflict")
            return
        }
        #expect(editor.nameField.value == "Mine")
        #expect(editor.sections[0].durationField.value == "10:00")
        #expect(editor.alert?.message == ProfileEditorViewModel.conflictMessage)
        // Saving again is now a deliberate overwrite of version 2.
        #expect(editor.version == 2)
        #expect(try await repository.get(id: 1)?.name == "Changed elsewhere")
    }

    @Test("Unknown profile: not found; a broken store: the failure page")
    func missingAndFailing() async throws {
        let none = try await storedProfiles()
        #expect(await ProfileEditorViewModel.load(id: 9, from: none, context: .fixture) == .notFound)
        let input = ProfileFormInput(version: 1, [:])
        #expect(await ProfileEditorViewModel.submit(id: 9, input, to: none, context: .fixture) == .notFound)
        let broken = try await brokenProfiles([Self.stored()])
        guard
            case .failed(let page, .storage) = await ProfileEditorViewModel.load(id: 1, from: broken, context: .fixture)
        else {
            Issue.record("expected .failed")
            return
        }
        #expect(page.heading == "Profiles are unavailable")
    }

    @Test("A save the storage fails: the form again with the typed values and an alert, nothing lost")
    func storageFailsOnSave() async throws {
        let input = ProfileFormInput(version: 1, [.name: "Typed", .duration(.main): "12:00", .enabled(.warmUp): "on"])
        let broken = try await brokenProfiles([Self.stored()])
        guard
            case .failed(let editor, .storage) = await ProfileEditorViewModel.submit(
                id: 1, input, to: broken, context: .fixture)
        else {
            Issue.record("expected .failed with the form")
            return
        }
        #expect(editor.actionURL == "/profiles/1")
        #expect(editor.nameField.value == "Typed")
        #expect(editor.sections[0].durationField.value == "12:00")
        #expect(editor.sections[1].isOn)
        #expect(editor.alert?.title == "Not saved.")
    }

    @Test("Every form field has one name and one id, and the form decodes by them")
    func fieldNames() throws {
        let names = ProfileField.formFields.map(\.formName)
        #expect(Set(names).count == names.count)
        #expect(ProfileField.interval(.warmUp).formName == "warmUp.repeat.interval")
        #expect(ProfileField.soundEnabled(.coolDown, .begin).inputID == "field-coolDown-begin-enabled")
        let editor = ProfileEditorViewModel(profile: ProfileEditorViewModelTests.stored(), context: .fixture)
        #expect(editor.sections[1].switchName == ProfileField.enabled(.warmUp).formName)
        #expect(editor.sections[0].durationField.inputID == ProfileField.duration(.main).inputID)
    }

    @Test("Each field's spelling is its own: the table is indexed by every field's ordinal")
    func spellingTable() {
        #expect(ProfileField.all.count == 31)
        #expect(Set(ProfileField.all).count == ProfileField.all.count)
        for (index, field) in ProfileField.all.enumerated() {
            #expect(field.ordinal == index, "\(field)")
        }
        #expect(Set(ProfileField.all.map(\.formName)).count == ProfileField.all.count)
        let names = ProfileField.iterations(.coolDown).names
        #expect(names.name == "coolDown.repeat.iterations")
        #expect(names.hintID == "field-coolDown-repeat-iterations-hint")
        #expect(names.errorID == "field-coolDown-repeat-iterations-error")
    }
}

@Suite("Profiles list and home view models")
struct ProfilesListViewModelTests {
    @Test("Each profile shows its name and duration")
    func rows() async throws {
        var long = Profile.new(named: "Long")
        long.duration = 5400
        let outcome = await ProfilesListViewModel.load(from: try await storedProfiles([long]), context: .fixture)
        guard case .page(let page) = outcome else {
            Issue.record("expected the page, got \(outcome)")
            return
        }
        #expect(page.rows.map(\.name) == ["Long"])
        #expect(page.rows.map(\.durationText) == ["01:30:00"])
        #expect(page.rows.map(\.editURL) == ["/profiles/1"])
        #expect(page.emptyMessage == nil)
    }

    @Test(
        "A long list pages 50 by name; the home panel shows five and counts them all; past the last page is not found")
    func paging() async throws {
        let profiles = (1...120).map { number in
            var profile = Profile.new(named: String(format: "Profile %03d", number))
            profile.id = number
            return profile
        }
        let repository = try await storedProfiles(profiles)
        let second = try #require(
            await ProfilesListViewModel.load(page: 2, from: repository, context: .fixture).shownPage)
        #expect(second.rows.map(\.name).first == "Profile 051")
        #expect(second.rows.count == 50)
        #expect(second.paging?.label == "Page 2 of 3")
        #expect(second.paging?.previousURL == "/profiles")
        #expect(second.paging?.nextURL == "/profiles?page=3")
        #expect(second.layout.title == "Profiles, page 2")
        #expect(await ProfilesListViewModel.load(page: 4, from: repository, context: .fixture) == .notFound)
        let empty = try #require(
            await ProfilesListViewModel.load(from: try await storedProfiles(), context: .fixture).shownPage)
        #expect(empty.paging == nil)
        #expect(empty.emptyMessage == ProfilesListViewModel.noProfilesMessage)

        let panel = await ProfilesPanelViewModel.load(from: repository, words: .english)
        #expect(panel.items.map(\.name) == (1...5).map { String(format: "Profile %03d", $0) })
        #expect(panel.allLabel == "All 120 profiles")
    }

    @Test("Profiles that cannot be read: the page with why, as a storage failure; a database out of reach says so")
    func unreadable() async throws {
        let outcome = await ProfilesListViewModel.load(from: try await brokenProfiles(), context: .fixture)
        guard case .partial(let page, .storage) = outcome else {
            Issue.record("expected a partial page, got \(outcome)")
            return
        }
        #expect(page.errorMessage == ProfilesListViewModel.storageFailureMessage)
        #expect(page.nameField.name == "name")  // the form to create one is still there
        let unreachable = ProfilesListViewModel(
            profiles: nil, context: .fixture, failure: ProfileRepositoryError.unreachable("timed out"))
        #expect(unreachable.errorMessage == "The database is not reachable. Try again in a moment.")
        let panel = ProfilesPanelViewModel(
            profiles: nil, failure: ProfileRepositoryError.unreachable("timed out"), words: .english)
        #expect(panel.errorMessage == StorageMessage.unreachable)
        let practice = PracticePanelViewModel(
            practice: nil, failure: SittingSessionRepositoryError.unreachable("down"), words: .english)
        #expect(practice.errorMessage == StorageMessage.unreachable)
    }

    @Test("Creating by name opens the new profile's editor; a blank name is refused")
    func create() async throws {
        let repository = try await storedProfiles()
        let outcome = await ProfilesListViewModel.create(name: "  Evening ", in: repository, context: .fixture)
        #expect(outcome == .redirect(Redirect(to: "/profiles/1", flash: .success("Created Evening."))))
        #expect(try await repository.get(id: 1)?.duration == 450)
        guard case .invalid(let page) = await ProfilesListViewModel.create(name: "", in: repository, context: .fixture)
        else {
            Issue.record("expected .invalid")
            return
        }
        #expect(page.nameField.error == "Name is required.")
        #expect(page.rows.map(\.name) == ["Evening"])
    }

    @Test("Deleting says which profile went")
    func delete() async throws {
        let repository = try await storedProfiles([.new(named: "Evening")])
        #expect(
            await ProfilesListViewModel.delete(id: 1, in: repository, words: .english).flash
                == .success("Deleted Evening."))
        #expect(await ProfilesListViewModel.delete(id: 1, in: repository, words: .english).flash?.isError == true)
    }

    @Test("The home page composes its three panels; one failing leaves the others whole")
    func home() async throws {
        let ada = try await StoredPerson.make(profiles: [.new(named: "Morning")])
        let home = await HomeViewModel.load(
            profiles: ada.profiles,
            friends: FriendsRepository(remote: FakeFriendService.failing(.transport("down"))),
            sessions: Breakable(ada.sessions, fault: Fault(.storage)),
            context: .fixture
        )
        #expect(home.profiles.items.map(\.name) == ["Morning"])
        #expect(home.friends.errorMessage == "Loading failed, check network connection")
        #expect(home.friends.items.isEmpty)
        #expect(home.practice.errorMessage == HistoryViewModel.storageFailureMessage)
        #expect(home.practice.sitLink == nil)
        let healthy = await HomeViewModel.load(
            profiles: Breakable(ada.profiles, fault: Fault(.storage)),
            friends: FriendsRepository(remote: FakeFriendService.listing([.jane])),
            sessions: ada.sessions,
            context: .fixture
        )
        #expect(healthy.practice.emptyMessage == HistoryViewModel.noSessionsMessage)
        #expect(healthy.friends.items.map(\.fullName) == ["Jane Doe"])
        #expect(healthy.profiles.errorMessage == ProfilesListViewModel.storageFailureMessage)
    }
}
