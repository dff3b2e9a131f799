import Foundation
import SanghaCore
import SanghaViewModels

extension Profile {
    /// A profile with Warm Up on (with a repeating sound) and Cool Down off.
    static let morning: Profile = {
        var profile = Profile.new(named: "Morning sit")
        profile.id = 1
        profile.version = 3
        profile.duration = 1200
        profile[.warmUp].enabled = true
        profile[.warmUp].duration = 180
        profile[.warmUp][sound: .repeat].enabled = true
        profile[.warmUp][sound: .repeat].interval = 60
        profile[.warmUp][sound: .repeat].iterations = 3
        profile[.warmUp][sound: .end].name = "Gong"
        return profile
    }()

    static let evening: Profile = {
        var profile = Profile.new(named: "Evening")
        profile.id = 2
        profile.version = 1
        profile.duration = 5400
        profile[.coolDown].enabled = true
        return profile
    }()

    static let fresh: Profile = {
        var profile = Profile.new(named: "New profile")
        profile.id = 3
        profile.version = 1
        return profile
    }()

    static let hostile: Profile = {
        var profile = Profile.new(named: "<script>alert('x')</script> & \"Zen\" 🧘 שלום")
        profile.id = 66
        profile.version = 1
        return profile
    }()
}

extension ProfilesListViewModel {
    public enum Fixtures {
        public static let twoProfiles = ProfilesListViewModel(
            profiles: [Profile.morning, Profile.evening], context: .fixture)
        public static let empty = ProfilesListViewModel(profiles: [], context: .fixture)
        public static let storageFailure = ProfilesListViewModel(profiles: nil, context: .fixture)
        public static let nameError = ProfilesListViewModel(
            profiles: [Profile.morning], context: .fixture,
            name: "   ",
            nameError: "Name is required."
        )
        public static let created = ProfilesListViewModel(
            profiles: [Profile.morning], context: .fixture(flash: .success("Deleted Evening.")))
        public static let hostile = ProfilesListViewModel(profiles: [Profile.hostile], context: .fixture)
        /// The second of two pages: 53 profiles, these the last three.
        public static let secondPage = ProfilesListViewModel(
            profiles: [Profile.morning, Profile.evening, Profile.fresh], total: 53, page: 2, context: .fixture)
    }
}

extension ProfileEditorViewModel {
    public enum Fixtures {
        /// A new profile: Warm Up and Cool Down off, so those sections show only their switch.
        public static let fresh = ProfileEditorViewModel(profile: Profile.fresh, context: .fixture)
        /// Warm Up on with its duration and sounds; Cool Down off.
        public static let warmUpOn = ProfileEditorViewModel(profile: Profile.morning, context: .fixture)
        /// An hour and a half, Cool Down on.
        public static let long = ProfileEditorViewModel(profile: Profile.evening, context: .fixture)
        public static let saved = ProfileEditorViewModel(
            profile: Profile.morning, context: .fixture(flash: .success("Profile saved.")))
        /// Bad values typed into each kind of field, kept, each with its message.
        public static let invalid: ProfileEditorViewModel = {
            let input = ProfileFormInput(
                version: 3,
                [
                    .name: "", .duration(.main): "7 minutes",
                    .enabled(.warmUp): "on", .duration(.warmUp): "02:00",
                    .soundEnabled(.warmUp, .begin): "on", .soundName(.warmUp, .begin): "Bell",
                    .soundEnabled(.warmUp, .repeat): "on", .soundName(.warmUp, .repeat): "Bowl",
                    .interval(.warmUp): "05:00", .iterations(.warmUp): "x",
                ])
            let (profile, errors) = input.applied(to: Profile.morning, words: .english)
            return ProfileEditorViewModel(profile: profile, context: .fixture, input: input, errors: errors)
        }()
        public static let conflict = ProfileEditorViewModel(
            profile: Profile.morning, context: .fixture,
            alert: AlertViewModel(title: "Not saved.", message: ProfileEditorViewModel.conflictMessage)
        )
        public static let hostile = ProfileEditorViewModel(profile: Profile.hostile, context: .fixture)
    }
}

extension HomeViewModel {
    public enum Fixtures {
        public static let full = HomeViewModel(
            profiles: ProfilesPanelViewModel(profiles: [Profile.morning, Profile.evening], words: .english),
            friends: FriendsPanelViewModel(friends: Friend.fixtures, words: .english),
            practice: PracticePanelViewModel.Fixtures.practising,
            context: .fixture
        )
        public static let empty = HomeViewModel(
            profiles: ProfilesPanelViewModel(profiles: [], words: .english),
            friends: FriendsPanelViewModel(friends: [], words: .english),
            practice: PracticePanelViewModel.Fixtures.empty,
            context: .fixture
        )
        /// The FriendService is down: the friends panel says so, the profiles panel is whole.
        public static let friendsDown = HomeViewModel(
            profiles: ProfilesPanelViewModel(profiles: [Profile.morning], words: .english),
            friends: FriendsPanelViewModel(
                friends: [], errorMessage: "Loading failed, check network connection", words: .english),
            practice: PracticePanelViewModel.Fixtures.practising,
            context: .fixture
        )
    }
}

extension SittingViewModel {
    public enum Fixtures {
        /// Warm Up with a repeating sound (one row: "Bell rings 3 times every 01:00 from 01:00 to
        /// 03:00"), then the meditation.
        public static let morning = SittingViewModel(profile: Profile.morning, context: .fixture)
        public static let fresh = SittingViewModel(profile: Profile.fresh, context: .fixture)
        public static let hostile = SittingViewModel(profile: Profile.hostile, context: .fixture)
        public static let notSaved = SittingViewModel(
            profile: Profile.morning, context: .fixture,
            alert: AlertViewModel(title: "Not saved.", message: "Sessions could not be saved. Please try again."))
    }
}
