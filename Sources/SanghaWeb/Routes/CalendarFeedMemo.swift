import Foundation
import NIOCore
import SanghaCore
import SanghaStoreSupport

/// The calendar feeds this instance wrote lately, by person: a calendar app, or several of
/// them, polling a feed of many sits gets the bytes again without the sits being read and written
/// out again. A feed is kept for `lifetime` at most, forgotten at once when any group's sits or
/// members change (the group events, from every instance; a feed read while one came is not
/// kept), and used only for the person as read now (their reminder and time zone) and the same
/// site address. Whose link a token is, is read on every request: a reset, or a person disabled,
/// counts at once on every instance.
struct CalendarFeedMemo: Sendable {
    struct Feed: Sendable {
        let body: ByteBuffer
        let etag: String
        /// What it was written for: the person as read then, and the address its links begin with.
        let person: Person
        let site: String
    }

    /// What a change made on another instance to a person's reminder waits at most to show.
    static let lifetime: Duration = .seconds(60)

    private let feeds = Memo<Int, Feed>(watch: AloneOnData(), maximumAge: Self.lifetime, limit: 1_000)

    init(events: any GroupEventBus) {
        events.subscribe { [feeds] event in
            // Any group's sits or members: which feeds list them is not known here.
            switch event {
            case .signedOut, .signedOutEverywhere: break
            default: feeds.forgetAll()
            }
        }
    }

    /// The feed kept for `person` (as read now) at `site`, while it is young enough; else nil,
    /// and the read to keep the feed written now with.
    func feed(of person: Person, site: String) -> (Feed?, read: Memo<Int, Feed>.Read?) {
        feeds.value(person.id) { $0.person == person && $0.site == site }
    }

    func keep(_ feed: Feed, from read: Memo<Int, Feed>.Read?) {
        feeds.keep(feed, for: feed.person.id, from: read)
    }
}
