import Foundation
import SanghaCore

/// The home page's practice panel: the streak, the time sat today, and the way back to the
/// cushion with the profile used last.
public struct PracticePanelViewModel: Sendable, Equatable, Encodable {
    public let title: String
    /// The labels of the streak and of the time sat today.
    public let streakLabel: String
    public let todayLabel: String
    public let hasPractice: Bool
    /// "3 days"; nil when the person turned "Show streaks" off.
    public let streakText: String?
    public let todayText: String
    public let emptyMessage: String?
    public let errorMessage: String?
    /// "Sit with Morning" (the profile of the last session), or the profiles with none yet.
    public let sitLink: LinkViewModel?
    public let allURL: String = Paths.history.url
    public let allLabel: String

    /// `practice` nil: the sessions could not be read, for `failure`. Its first recent session
    /// is the newest. In `words`' language.
    public init(
        practice: Practice?, failure: (any Error)? = nil, showsStreak: Bool = true, words: Words
    ) {
        (title, allLabel) = (words.homePractice, words.homeHistory)
        (streakLabel, todayLabel) = (words.homeStreak, words.homeToday)
        let last = practice?.recent.first
        let sessions = practice?.totals.sessions ?? 0
        hasPractice = sessions > 0
        streakText = showsStreak ? words.homeStreakDays(practice?.streak ?? 0) : nil
        todayText = DurationFormatter.words(from: practice?.todays.seconds ?? 0, words: words)
        emptyMessage = practice != nil && sessions == 0 ? words.homeNoSessions : nil
        errorMessage =
            practice == nil
            ? (StorageMessage.isUnreachable(failure)
                ? words.storageUnreachable : words.homeSessionsCouldNotRead)
            : nil
        if let last, let id = last.profileID {
            sitLink = LinkViewModel(url: Paths.sit.url(id), label: words.homeSitWith(name: last.profileName))
        } else if practice != nil {
            sitLink = LinkViewModel(url: Paths.profiles.url, label: words.homeChooseProfile)
        } else {
            sitLink = nil
        }
    }

    public static func load(from repository: any SittingSessionRepository, context: PageContext) async
        -> PracticePanelViewModel
    {
        do {
            return PracticePanelViewModel(
                practice: try await repository.practice(today: context.today, recent: 1, offset: 0),
                showsStreak: context.showsStreaks, words: context.words)
        } catch {
            return PracticePanelViewModel(practice: nil, failure: error, words: context.words)
        }
    }
}
