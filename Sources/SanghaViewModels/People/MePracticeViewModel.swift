import Foundation
import SanghaCore

/// The practice on the person's own page: the streak and the time sat in all, the last few
/// sessions, and the profiles they sit with. Sessions and profiles are read apart: one failing
/// leaves the other whole. The words and rules are the home panels' and the history's.
public struct MePracticeViewModel: Sendable, Equatable, Encodable {
    /// Sessions shown, the newest first.
    public static let sessionLimit = 3

    public let title: String
    /// Whether there is a session to count: the streak and total time are shown.
    public let hasPractice: Bool
    public let streakLabel: String
    /// nil when the person turned "Show streaks" off.
    public let streakText: String?
    public let totalTimeLabel: String
    public let totalTimeText: String
    /// No session yet (and none failed to be read).
    public let emptyMessage: String?
    /// The sessions could not be read.
    public let errorMessage: String?
    /// Back to the cushion: the profile of the last session, or the profiles with none yet.
    public let sitLink: LinkViewModel?
    public let sessionsTitle: String
    public let sessions: [HistorySessionRowViewModel]
    public let hasSessions: Bool
    public let historyURL: String = Paths.history.url
    public let historyLabel: String

    public let profilesTitle: String
    /// `2 profiles`; nil when they could not be read.
    public let profilesCountText: String?
    /// The first few, by name, each a link to its editor.
    public let profiles: [ProfilesPanelViewModel.Item]
    public let hasProfiles: Bool
    public let profilesErrorMessage: String?
    public let profilesURL: String
    public let profilesLabel: String

    /// `practice` nil: the sessions could not be read, for `sessionsFailure`; its recent
    /// sessions are shown. `profiles` nil: they could not be read, for `profilesFailure`;
    /// `profileCount`: how many there are, when `profiles` are only the first of them.
    public init(
        practice: Practice?, sessionsFailure: (any Error)? = nil,
        profiles: [Profile]?, profileCount: Int? = nil, profilesFailure: (any Error)? = nil,
        timeZone: TimeZone, showsStreak: Bool = true, words: Words
    ) {
        (title, streakLabel, totalTimeLabel) = (words.mePractice, words.meStreak, words.meTotalTime)
        (sessionsTitle, historyLabel, profilesTitle) = (words.meLastSessions, words.layoutHistory, words.layoutProfiles)
        let panel = PracticePanelViewModel(
            practice: practice, failure: sessionsFailure, showsStreak: showsStreak, words: words)
        hasPractice = panel.hasPractice
        streakText = panel.streakText
        totalTimeText = DurationFormatter.words(from: practice?.totals.seconds ?? 0, words: words)
        emptyMessage = panel.emptyMessage
        errorMessage = panel.errorMessage
        sitLink = panel.sitLink
        sessions = (practice?.recent ?? []).prefix(Self.sessionLimit).map {
            HistorySessionRowViewModel(session: $0, timeZone: timeZone, words: words)
        }
        hasSessions = !sessions.isEmpty

        let profilesPanel = ProfilesPanelViewModel(
            profiles: profiles, total: profileCount, failure: profilesFailure, words: words)
        profilesCountText = profiles.map { words.meProfiles(profileCount ?? $0.count) }
        self.profiles = profilesPanel.items
        hasProfiles = profilesPanel.hasItems
        profilesErrorMessage = profilesPanel.errorMessage
        profilesURL = profilesPanel.allURL
        profilesLabel = profilesPanel.allLabel
    }

    /// The first profiles, beside the sessions as `practice(from:context:)` read them.
    static func load(
        profiles profileRepository: any ProfileRepository,
        sat: (practice: Practice?, failure: (any Error)?),
        context: PageContext
    ) async -> MePracticeViewModel {
        let listed = await firstProfiles(from: profileRepository)
        return MePracticeViewModel(
            practice: sat.practice, sessionsFailure: sat.failure,
            profiles: listed.page?.profiles, profileCount: listed.page?.total, profilesFailure: listed.failure,
            timeZone: context.timeZone, showsStreak: context.showsStreaks, words: context.words)
    }

    private static func firstProfiles(from repository: any ProfileRepository) async
        -> (page: ProfileListPage?, failure: (any Error)?)
    {
        do {
            return (try await repository.list(limit: ProfilesPanelViewModel.limit, offset: 0), nil)
        } catch {
            return (nil, error)
        }
    }

    /// The practice with its last sessions and its totals: one read for the whole page.
    static func practice(from repository: any SittingSessionRepository, context: PageContext) async
        -> (practice: Practice?, failure: (any Error)?)
    {
        do {
            return (try await repository.practice(today: context.today, recent: sessionLimit, offset: 0), nil)
        } catch {
            return (nil, error)
        }
    }
}
