import Foundation
import SanghaCore

/// What a notification says (DESIGN §17): the JSON a push carries, `{"title", "body", "url",
/// "tag"}`, which the service worker shows as it is. Every word a person reads is made here,
/// never by the sender, so that a language can be given to it later.
public struct NotificationMessage: Sendable, Equatable, Encodable {
    public let title: String
    public let body: String
    /// The page a click opens: the sit's, the group's, home.
    public let url: String
    /// The notification's tag, its push's topic: a newer one replaces an older.
    public let tag: String

    public init(title: String, body: String, url: String, tag: String) {
        (self.title, self.body, self.url, self.tag) = (title, body, url, tag)
    }

    /// A group sit about to begin: "Zazen begins at 07:00" (in the person's zone), with the
    /// group's name; its page.
    public static func sit(
        _ sit: GroupSit, groupName: String, start: Date, timeZone: TimeZone, words: Words
    ) -> NotificationMessage {
        NotificationMessage(
            title: words.notificationsSitBegins(sit: sit.name, time: CalendarText.time(start, timeZone: timeZone)),
            body: groupName,
            url: Paths.groupSit.url(sit.group, sit.id), tag: PushSchedule.sitTopic(sit.id))
    }

    /// The daily reminder at "Remind me to sit at".
    public static let reminder = NotificationMessage(reminderIn: .english)

    /// The daily reminder in `words`' language.
    public static func reminder(_ words: Words) -> NotificationMessage { NotificationMessage(reminderIn: words) }

    private init(reminderIn words: Words) {
        self.init(
            title: words.notificationsTimeToSit, body: words.notificationsDailyReminder, url: Paths.home.url,
            tag: PushSchedule.reminderTopic)
    }

    /// Someone in a group began to sit: "Ada is sitting", with the group's name; its page.
    public static func sitting(name: String, group: Int, groupName: String, words: Words)
        -> NotificationMessage
    {
        NotificationMessage(
            title: words.notificationsIsSitting(name: name), body: groupName, url: Paths.group.url(group),
            tag: PushSchedule.groupTopic(group))
    }

    /// The JSON a push carries.
    public var payload: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { [UInt8]($0) } ?? []
    }
}
