import Foundation
import SanghaCore

/// "You are offline.": what the installed app shows, without a network, for a page that was
/// never opened on the device. The service worker keeps it when it installs; it names no one
/// (whoever is signed in when it is kept, it may be shown to someone else on a shared phone).
public struct OfflineViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let message: String
    public let retryLabel: String
    /// The pages opened before still open, and a sitting page runs its sit.
    public let hint: String

    public init(context: PageContext) {
        var context = context
        context.person = nil
        context.flash = nil
        let words = context.words
        layout = LayoutViewModel(title: words.offlineTitle, section: nil, context: context)
        (heading, message) = (words.offlineHeading, words.offlineMessage)
        (retryLabel, hint) = (words.offlineRetry, words.offlineHint)
    }
}
