import Foundation
import SanghaTokens

/// One message for one device, as it is posted (RFC 8030): the payload before encryption, how
/// long the push service may keep it (`TTL`), how soon it must reach the device (`Urgency`),
/// and the `Topic` by which a newer message replaces one not yet delivered.
public struct PushMessage: Sendable, Equatable {
    public enum Urgency: String, Sendable {
        case veryLow = "very-low"
        case low
        case normal
        case high
    }

    /// The subscription's id where it is kept: told back when the push service says it is gone.
    public var subscription: Int
    public var endpoint: URL
    public var p256dh: [UInt8]
    public var auth: [UInt8]
    /// The plaintext (JSON), encrypted anew at every attempt.
    public var payload: [UInt8]
    /// After this the message is worth nothing (the sit has begun): its TTL counts down to it,
    /// and it is not tried again past it.
    public var expires: Date
    public var urgency: Urgency
    /// At most 32 characters of the base64url alphabet (RFC 8030 §5.4); nil for none.
    public var topic: String?

    public init(
        subscription: Int, endpoint: URL, p256dh: [UInt8], auth: [UInt8], payload: [UInt8], expires: Date,
        urgency: Urgency, topic: String?
    ) {
        (self.subscription, self.endpoint, self.p256dh, self.auth) = (subscription, endpoint, p256dh, auth)
        (self.payload, self.expires, self.urgency) = (payload, expires, urgency)
        self.topic = topic.flatMap(Self.isTopic) == true ? topic : nil
    }

    /// Whether `text` may be a `Topic`: at most 32 characters of the base64url alphabet (RFC 8030
    /// §5.4).
    public static func isTopic(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 32
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }

    /// The `TTL` at `date`: the whole seconds left, never less than 0.
    public func ttl(at date: Date) -> Int { max(0, Int(expires.timeIntervalSince(date).rounded(.down))) }
}

/// What a push service answered one post (RFC 8030 §5, §8.4).
public enum PushAnswer: Sendable, Equatable {
    /// 201 (or another 2xx): it has the message.
    case delivered
    /// 404 or 410: the subscription is gone for good; it is deleted.
    case gone(Int)
    /// 429 or 5xx: try again, after `retryAfter` when it said (`Retry-After`).
    case later(Int, retryAfter: TimeInterval?)
    /// 400, 403, 413 and any other answer: not taken, and it would not be taken again.
    case refused(Int, reason: String)
    /// No answer within the time allowed, or no connection (its breaker open too).
    case unanswered(String)

    /// From the status and `Retry-After` (seconds, or an HTTP date, at `date`).
    public static func of(status: Int, retryAfter: String?, body: String, at date: Date) -> PushAnswer {
        switch status {
        case 200..<300: return .delivered
        case 404, 410: return .gone(status)
        case 429, 500..<600: return .later(status, retryAfter: retryAfter.flatMap { seconds(in: $0, at: date) })
        default: return .refused(status, reason: body)
        }
    }

    /// `Retry-After`'s wait: a number of seconds, or an HTTP date from `date` (RFC 9110 §10.2.3).
    static func seconds(in text: String, at date: Date) -> TimeInterval? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return TimeInterval(seconds) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(secondsFromGMT: 0)
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let then = format.date(from: text) else { return nil }
        return max(0, then.timeIntervalSince(date))
    }

    /// Its name in `/metrics` (`outcome`).
    public var outcome: String {
        switch self {
        case .delivered: "delivered"
        case .gone: "gone"
        case .later: "later"
        case .refused: "refused"
        case .unanswered: "unanswered"
        }
    }
}
