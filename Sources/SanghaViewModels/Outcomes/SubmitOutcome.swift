import Foundation
import SanghaCore

/// How every form post ends. The web layer turns each case into a response in one place: a
/// 303 redirect, or the form again with its status.
public enum SubmitOutcome<Form: Sendable & Equatable>: Sendable, Equatable {
    /// Done: go on to the redirect's address, with its flash shown there once.
    case redirect(Redirect)
    /// Not done, and nothing changed (the storage failed, or the action no longer applies): back
    /// to the redirect's address, its error shown there once. No one else is told of anything.
    case refused(Redirect)
    /// A value is unreadable or breaks a rule: the form again (422), every typed value kept and
    /// each message by its field.
    case invalid(Form)
    /// Saved elsewhere since the form was loaded: the form again (409) with the person's values.
    case conflict(Form)
    /// Something else failed: the form again with an alert, values kept, and why.
    case failed(Form, PageFailure)
    /// What the form was about does not exist (404 page).
    case notFound
    /// There is no form to show again: what the form was about could not be read (a client that
    /// keeps what it posted tries again later), or is gone and what was posted breaks a rule.
    /// The failure page with why, and the failure's status.
    case unavailable(ErrorPageViewModel, PageFailure)
}

/// What a page load found: the page, nothing (404), or a failure page with why.
public enum LoadOutcome<Page: Sendable & Equatable>: Sendable, Equatable {
    case page(Page)
    /// The page without the part that failed, which it names, and why (the failure's status).
    case partial(Page, PageFailure)
    case notFound
    case failed(ErrorPageViewModel, PageFailure)
}

/// A 303 See Other to `url` (post/redirect/get), with a flash for the next page, and the group
/// events of what was done: the pages others have open that must show it (the web layer
/// publishes them, once, before it answers).
public struct Redirect: Sendable, Equatable {
    public let url: String
    public let flash: FlashViewModel?
    public let events: [GroupEvent]

    public init(to url: String, flash: FlashViewModel? = nil, events: [GroupEvent] = []) {
        (self.url, self.flash, self.events) = (url, flash, events)
    }
}

/// Why a request could not be served as asked. The web layer gives each its HTTP status
/// (`PageRenderer`): 404, 502, 503, 429, 403, 409 and 422.
public enum PageFailure: Sendable, Equatable {
    /// The thing asked about is gone.
    case notFound
    /// The FriendService failed or refused: another server, not the person, failed.
    case remoteService
    /// Sangha's own storage failed.
    case storage
    /// Too many wrong passwords within the window (429).
    case tooManyAttempts
    /// The password hashing queue is full (503): try again in a moment.
    case busy
    /// Not for this person, or not without what they lack (an invitation).
    case forbidden
    /// Cannot be done as the deployment is set up (an invitation while sign-up is closed).
    case conflict
    /// What was posted breaks a rule, and there is no form to show it by (422).
    case invalid
}
