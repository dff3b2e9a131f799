import Foundation

/// "You are offline.": what the installed app shows, without a network, for a page that was
/// never opened on the device. The service worker keeps it when it installs; it names no one
/// (whoever is signed in when it is kept, it may be shown to someone else on a shared phone).
public struct OfflineViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading = "You are offline."
    public let message =
        "This page has not been opened on this device before, so there is no copy of it here. It opens when Sangha can be reached."
    public let retryLabel = "Try again"
    /// The pages opened before still open, and a sitting page runs its sit.
    public let hint = "Pages you opened before open without a network, and a sitting page you opened runs its sit."

    public init(context: PageContext) {
        var context = context
        context.person = nil
        context.flash = nil
        layout = LayoutViewModel(title: "Offline", section: nil, context: context)
    }
}
