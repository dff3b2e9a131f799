import Foundation
import SanghaCore

/// The home page's practice panel: the streak, the time sat today, and the way back to the
/// cushion with the profile used last.
public struct PracticePanelViewModel: Sendable, Equatable, Encodable {
    public let title = "Practice"
    public let hasPractice: Bool
    /// "3 days"; nil when the person turned "Show streaks" off.
    public let streakText: String?
    public let todayText: String
    public let emptyMessage: String?
    public let errorMessage: String?
    /// "Sit with Morning" (the profile of the last session), or the profiles with none yet.
    public let sitLink: LinkViewModel?
    public let allURL: String = Paths.history.url
    public let allLabel = "History"

    /// `practice` nil: the sessions could not be read, for `failure`. Its first recent session
    /// is the newest.
    public init(practice: Practice?, failure: (any Error)? = nil, showsStreak: Bool = true) {
        let last = practice?.recent.first
        let sessions = practice?.totals.sessions ?? 0
        hasPractice = sessions > 0
        streakText = showsStreak ? HistoryViewModel.days(practice?.streak ?? 0) : nil
        todayText = DurationFormatter.words(from: practice?.todays.seconds ?? 0)
        emptyMessage = practice != nil && sessions == 0 ? HistoryViewModel.noSessionsMessage : nil
        errorMessage =
            practice == nil ? StorageMessage.text(for: failure, otherwise: HistoryViewModel.storageFailureMessage) : nil
        if let last, let id = last.profileID {
            sitLink = LinkViewModel(url: Paths.sit.url(id), label: "Sit with \(last.profileName)")
        } else if practice != nil {
            sitLink = LinkViewModel(url: Paths.profiles.url, label: "Choose a profile to sit with")
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
                showsStreak: context.showsStreaks)
        } catch {
            return PracticePanelViewModel(practice: nil, failure: error)
        }
    }
}
