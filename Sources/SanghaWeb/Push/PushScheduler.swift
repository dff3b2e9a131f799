import Foundation
import Logging
import SanghaCore
import SanghaPush
import SanghaViewModels
import ServiceLifecycle
import Synchronization

/// Finds the notifications that are due and hands them to the sender: a service of `sangha
/// serve`, on a clock it is given. Every `interval` (5 s), and at once when a group changes (a
/// sit scheduled or cancelled, someone began to sit: its group event, from any instance), it
/// asks `PushSchedule` what is due:
///
/// 1. each group sit beginning within ten minutes, to the members who want it;
/// 2. each daily reminder whose time has come, to those who have not sat that day;
/// 3. each member who began to sit in the last minute, to those of their groups who chose it.
///
/// Each message is claimed per device first (`PushRepository.claim`): with any number of
/// instances ticking at once, one sends it. A message is due for at most its grace (a sit until
/// it begins, a reminder ten minutes, a sit begun a minute), so one that an instance missed
/// while down is sent when it is back, and never an old one.
public final class PushScheduler: Service, Sendable {
    /// How often it looks, at most: everything is sent within this of its time (and 30 s).
    public static let interval: Duration = .seconds(5)

    private let repository: any PushRepository
    private let send: @Sendable ([PushMessage]) -> Void
    private let now: @Sendable () -> Date
    private let interval: Duration
    private let logger: Logger
    private let wake: AsyncStream<Void>
    private let wakeUp: AsyncStream<Void>.Continuation
    private let lastPrune = Mutex(Date.distantPast)

    /// `send` takes the messages claimed (`PushSender.send`); `events` wakes it at once.
    public init(
        repository: any PushRepository, send: @escaping @Sendable ([PushMessage]) -> Void,
        events: (any GroupEventBus)? = nil, now: @escaping @Sendable () -> Date = { Date() },
        interval: Duration = PushScheduler.interval, logger: Logger
    ) {
        (self.repository, self.send, self.now, self.interval, self.logger) = (repository, send, now, interval, logger)
        (wake, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        events?.subscribe { [wakeUp] event in
            if case .changed = event { wakeUp.yield() }
        }
    }

    /// Looks again now, not at the next interval.
    public func nudge() { wakeUp.yield() }

    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [wakeUp, interval] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    wakeUp.yield()
                }
            }
            group.addTask { [wake] in
                await self.tick(at: self.now())
                for await _ in wake.cancelOnGracefulShutdown() {
                    await self.tick(at: self.now())
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Sends what is due at `date`; answers how many messages were handed to the sender. A
    /// storage failure is logged, and what it stopped is looked at again at the next tick.
    @discardableResult
    public func tick(at date: Date) async -> Int {
        var sent = 0
        do {
            sent += try await sits(at: date)
            sent += try await reminders(at: date)
            sent += try await sitting(at: date)
            if date.timeIntervalSince(lastPrune.withLock { $0 }) > 3600 {
                // A claim is needed as long as its message could be due again: a week at most.
                try await repository.forgetClaims(before: date.addingTimeInterval(-8 * 86_400))
                lastPrune.withLock { $0 = date }
            }
        } catch {
            logger.warning("Notifications could not be read: \(error)")
        }
        return sent
    }

    private func sits(at date: Date) async throws -> Int {
        var sent = 0
        for found in try await repository.sits(beginningFrom: date, to: date.addingTimeInterval(PushSchedule.sitLead)) {
            guard let occurrence = PushSchedule.dueOccurrence(of: found.sit, at: date) else { continue }
            let recipients = try await repository.sitRecipients(of: found.sit.group)
            sent += try await claimAndSend(
                PushSchedule.sitKey(found.sit, start: occurrence.start), to: recipients, at: date,
                expires: occurrence.start, urgency: .high, topic: PushSchedule.sitTopic(found.sit.id)
            ) { recipient in
                NotificationMessage.sit(
                    found.sit, groupName: found.groupName, start: occurrence.start, timeZone: recipient.timeZone,
                    words: recipient.words)
            }
        }
        return sent
    }

    private func reminders(at date: Date) async throws -> Int {
        var sent = 0
        for recipient in try await repository.reminderRecipients() {
            guard let due = PushSchedule.dueReminder(for: recipient, at: date) else { continue }
            sent += try await claimAndSend(
                due.key, to: [recipient.recipient], at: date,
                expires: due.at.addingTimeInterval(PushSchedule.reminderLifetime), urgency: .normal,
                topic: PushSchedule.reminderTopic
            ) { .reminder($0.words) }
        }
        return sent
    }

    private func sitting(at date: Date) async throws -> Int {
        var sent = 0
        let since = date.addingTimeInterval(-PushSchedule.sittingLookback)
        for start in try await repository.sittingStarts(since: since, at: date) {
            for told in try await repository.sittingRecipients(of: start, at: date) {
                sent += try await claimAndSend(
                    PushSchedule.sittingKey(start), to: [told.recipient], at: date,
                    expires: start.since.addingTimeInterval(PushSchedule.sittingLifetime), urgency: .low,
                    topic: PushSchedule.groupTopic(told.group)
                ) {
                    NotificationMessage.sitting(
                        name: start.name, group: told.group, groupName: told.groupName, words: $0.words)
                }
            }
        }
        return sent
    }

    /// Claims `key` for the recipients' devices and sends each device claimed its message.
    private func claimAndSend(
        _ key: String, to recipients: [PushRecipient], at date: Date, expires: Date, urgency: PushMessage.Urgency,
        topic: String, message: (PushRecipient) -> NotificationMessage
    ) async throws -> Int {
        let devices = recipients.flatMap(\.devices)
        guard !devices.isEmpty else { return 0 }
        let claimed = Set(try await repository.claim(key, devices: devices.map(\.id), at: date))
        guard !claimed.isEmpty else { return 0 }
        var messages: [PushMessage] = []
        for recipient in recipients {
            let payload = message(recipient).payload
            for device in recipient.devices where claimed.contains(device.id) {
                guard let endpoint = URL(string: device.endpoint) else { continue }
                messages.append(
                    PushMessage(
                        subscription: device.id, endpoint: endpoint, p256dh: device.p256dh, auth: device.auth,
                        payload: payload, expires: expires, urgency: urgency, topic: topic))
            }
        }
        send(messages)
        return messages.count
    }
}

extension PushRecipient {
    /// The words of the person's language (English when they chose none): what their
    /// notifications say.
    var words: Words { Words(language ?? .en) }
}
