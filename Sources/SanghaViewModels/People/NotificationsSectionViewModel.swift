import Foundation
import SanghaCore

/// Settings' "Notifications" (DESIGN §17): "Turn on notifications on this device" (the page's
/// script asks the browser, inside the click, and subscribes), this person's devices with
/// "Remove", and the three choices. What the script says in each case is here too, as data:
/// without script, without `PushManager`, on an iPhone outside the Home Screen, after a denied
/// permission.
public struct NotificationsSectionViewModel: Sendable, Equatable, Encodable {
    public let id = "notifications"
    public let heading: String
    public let hint: String
    public let turnOnLabel: String
    /// Where the script reads the server's public key, and posts the subscription.
    public let keyURL: String = Paths.pushKey.url
    public let subscribeURL: String = Paths.pushSubscriptions.url
    /// Shown without script (a `<noscript>`).
    public let noScript: String
    /// The script's words, for each case it finds.
    public let turnedOn: String
    public let unsupported: String
    public let iPhone: String
    public let denied: String
    public let failed: String
    public let devicesHeading: String
    public let devices: [PushDeviceRowViewModel]
    public let noDevices: String?
    public let choicesLegend: String
    public let choicesURL: String = Paths.notificationChoices.url
    public let sitsLabel: String
    public let sitsHint: String
    public let sits: Bool
    public let reminderLabel: String
    /// Names the time of "Remind me to sit at", or says to set it first.
    public let reminderHint: String
    public let reminder: Bool
    public let sittingLabel: String
    public let sittingHint: String
    public let sitting: Bool
    public let submitLabel: String

    public init(
        devices: [PushDevice], choices: PushChoices, reminderMinutes: Int?, timeZone: TimeZone,
        words: Words
    ) {
        (heading, hint, turnOnLabel) = (words.notificationsHeading, words.notificationsHint, words.notificationsTurnOn)
        (noScript, turnedOn) = (words.notificationsNoScript, words.notificationsOn)
        (unsupported, iPhone) = (words.notificationsUnsupported, words.notificationsIphone)
        (denied, failed) = (words.notificationsDenied, words.notificationsFailed)
        (devicesHeading, choicesLegend) = (words.notificationsDevices, words.notificationsTellMeWhen)
        (sitsLabel, sitsHint) = (words.notificationsSits, words.notificationsSitsHint)
        reminderLabel = words.notificationsReminder
        (sittingLabel, sittingHint) = (words.notificationsSitting, words.notificationsSittingHint)
        submitLabel = words.notificationsSave
        self.devices = devices.map { PushDeviceRowViewModel($0, timeZone: timeZone, words: words) }
        noDevices = devices.isEmpty ? words.notificationsNoDevices : nil
        (sits, reminder, sitting) = (choices.sits, choices.reminder, choices.sitting)
        reminderHint =
            reminderMinutes.map { words.notificationsReminderAt(time: SettingsViewModel.timeOfDay($0)) }
            ?? words.notificationsReminderNone
    }

    /// The section of `person`, or nil when their devices cannot be read (the page shows the
    /// rest).
    public static func load(person: Person, push: any PushRepository, words: Words) async
        -> NotificationsSectionViewModel?
    {
        do {
            async let devices = push.devices(of: person.id)
            async let choices = push.choices(of: person.id)
            return NotificationsSectionViewModel(
                devices: try await devices, choices: try await choices, reminderMinutes: person.reminderMinutes,
                timeZone: person.timeZone, words: words)
        } catch {
            return nil
        }
    }

    /// Why a subscription was refused (400), by what was wrong.
    public enum Refusal: Sendable, Equatable {
        case noEndpoint, malformedEndpoint, notHTTPS, unknownService, badKey, badAuth

        /// Why, in `words`' language (the script shows it).
        public func message(in words: Words) -> String {
            switch self {
            case .noEndpoint: words.notificationsNoEndpoint
            case .malformedEndpoint: words.notificationsMalformedEndpoint
            case .notHTTPS: words.notificationsNotHttps
            case .unknownService: words.notificationsUnknownService
            case .badKey: words.notificationsBadKey
            case .badAuth: words.notificationsBadAuth
            }
        }
    }

    /// What became of a subscription posted by the script: kept (201, no flash: the script
    /// says it), refused (400 with why), or not kept (503).
    public enum Subscribed: Sendable, Equatable {
        case added(String)
        case refused(String)
        case failed(String)
    }

    /// Keeps `device` (checked by the web layer: its endpoint, key and secret) as one of the
    /// person's, at most `PushDevice.limitPerPerson` (the oldest goes).
    public static func subscribe(_ device: PushDevice, push: any PushRepository, words: Words) async
        -> Subscribed
    {
        do {
            _ = try await push.add(device, limit: PushDevice.limitPerPerson)
            return .added(words.notificationsOn)
        } catch {
            return .failed(
                StorageMessage.text(for: error, otherwise: words.notificationsDeviceNotSaved, words: words))
        }
    }

    /// "Remove": the device gets nothing more.
    public static func remove(device id: Int, of person: Person, push: any PushRepository, words: Words)
        async -> SubmitOutcome<ErrorPageViewModel>
    {
        do {
            guard try await push.remove(device: id, of: person.id) else { return .notFound }
            return .redirect(
                Redirect(to: Paths.settings.url + "#notifications", flash: .success(words.notificationsRemoved)))
        } catch {
            return .refused(
                Redirect(
                    to: Paths.settings.url + "#notifications",
                    flash: .error(
                        title: words.notificationsNotRemoved,
                        message: StorageMessage.text(for: error, otherwise: words.commonTryAgain, words: words))))
        }
    }

    /// The three choices, as the form posts them (a box not checked is not sent).
    public struct ChoicesInput: Decodable, Sendable, Equatable {
        public var sits: String?
        public var reminder: String?
        public var sitting: String?

        public init(sits: String? = nil, reminder: String? = nil, sitting: String? = nil) {
            (self.sits, self.reminder, self.sitting) = (sits, reminder, sitting)
        }

        public var choices: PushChoices {
            PushChoices(sits: sits != nil, reminder: reminder != nil, sitting: sitting != nil)
        }
    }

    /// "Save notification choices".
    public static func choose(
        _ input: ChoicesInput, person: Person, push: any PushRepository, words: Words
    ) async -> SubmitOutcome<ErrorPageViewModel> {
        do {
            try await push.setChoices(input.choices, of: person.id)
            return .redirect(
                Redirect(to: Paths.settings.url + "#notifications", flash: .success(words.notificationsSaved)))
        } catch {
            return .refused(
                Redirect(
                    to: Paths.settings.url + "#notifications",
                    flash: .error(
                        title: words.notificationsNotSaved,
                        message: StorageMessage.text(for: error, otherwise: words.commonTryAgain, words: words))))
        }
    }
}

/// A device in Settings: "Firefox on Linux", added when, and "Remove".
public struct PushDeviceRowViewModel: Sendable, Equatable, Encodable {
    public let name: String
    public let added: String
    public let removeURL: String
    public let removeLabel: String
    /// The button's accessible name: "Remove Firefox on Linux".
    public let removeName: String

    public init(_ device: PushDevice, timeZone: TimeZone, words: Words) {
        name = words.isolated(device.name)
        added = words.notificationsAdded(date: WordsDates.shortDate(device.createdAt, timeZone: timeZone, words: words))
        removeURL = Paths.removePushDevice.url(device.id)
        removeLabel = words.notificationsRemove
        removeName = words.notificationsRemoveDevice(device: device.name)
    }
}
