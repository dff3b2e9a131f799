import Foundation
import NIOCore
import SanghaCore
import Synchronization

/// The calendar feeds this instance wrote lately, by person: a calendar app, or several of
/// them, polling a feed of many sits gets the bytes again without the sits being read and written
/// out again. A feed is kept for `lifetime` at most, forgotten at once when any group's sits or
/// members change (the group events, from every instance), and used only for the person as read
/// now (their reminder and time zone) and the same site address. Whose link a token is, is read
/// on every request: a reset, or a person disabled, counts at once on every instance.
final class CalendarFeedMemo: Sendable {
    struct Feed: Sendable {
        let body: ByteBuffer
        let etag: String
        /// What it was written for: the person as read then, and the address its links begin with.
        let person: Person
        let site: String
        let madeAt: ContinuousClock.Instant
    }

    /// What a change made on another instance to a person's reminder waits at most to show.
    static let lifetime: Duration = .seconds(60)
    /// Feeds kept at most (the oldest goes first).
    static let capacity = 1_000

    private let feeds = Mutex<[Int: Feed]>([:])

    init(events: any GroupEventBus) {
        events.subscribe { [weak self] event in
            // Any group's sits or members: which feeds list them is not known here.
            switch event {
            case .signedOut, .signedOutEverywhere: break
            default: self?.forgetAll()
            }
        }
    }

    /// The feed kept for `person` (as read now) at `site`, while it is young enough.
    func feed(of person: Person, site: String) -> Feed? {
        feeds.withLock { feeds in
            guard let feed = feeds[person.id] else { return nil }
            guard ContinuousClock.now - feed.madeAt < Self.lifetime, feed.person == person, feed.site == site else {
                feeds[person.id] = nil
                return nil
            }
            return feed
        }
    }

    func keep(_ feed: Feed) {
        feeds.withLock { feeds in
            if feeds.count >= Self.capacity, let oldest = feeds.min(by: { $0.value.madeAt < $1.value.madeAt })?.key {
                feeds[oldest] = nil
            }
            feeds[feed.person.id] = feed
        }
    }

    func forgetAll() {
        feeds.withLock { $0.removeAll() }
    }
}
