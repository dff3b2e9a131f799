import Foundation
import SanghaCore

/// Settings' "Notifications" (DESIGN §17): "Turn on notifications on this device" (the page's
/// script asks the browser, inside the click, and subscribes), this person's devices with
/// "Remove", and the three choices. What the script says in each case is here too, as data:
/// without script, without `PushManager`, on an iPhone outside the Home Screen, after a denied
/// permission.
public struct NotificationsSectionViewModel: Sendable, Equatable, Encodable {
    public let id = "notifications"
    public let heading = "Notifications"
    public let hint =
        "Sangha can tell this device when a group sit is about to start, remind you to sit, and tell you when someone in your groups starts sitting, even when Sangha is closed."
    public let turnOnLabel = "Turn on notifications on this device"
    /// Where the script reads the server's public key, and posts the subscription.
    public let keyURL: String = Paths.pushKey.url
    public let subscribeURL: String = Paths.pushSubscriptions.url
    /// Shown without script (a `<noscript>`).
    public let noScript = "Notifications need JavaScript: turn it on for this site to get them on this device."
    /// The script's words, for each case it finds.
    public let turnedOn: String = NotificationsSectionViewModel.on
    public let unsupported =
        "This browser cannot get notifications from a website (it has no PushManager). Try another browser, or Sangha installed as an app."
    public let iPhone = "Add Sangha to your Home Screen first (iOS 16.4 or later)."
    public let denied =
        "Notifications are blocked for Sangha in this browser. Allow them in the site’s settings (the icon beside the address, or the browser’s settings for this site), then press the button again."
    public let failed = "Notifications could not be turned on. Try again in a moment."
    public let devicesHeading = "Devices that get notifications"
    public let devices: [PushDeviceRowViewModel]
    public let noDevices: String?
    public let choicesLegend = "Tell me when"
    public let choicesURL: String = Paths.notificationChoices.url
    public let sitsLabel = "A group sit is about to start"
    public let sitsHint = "Ten minutes before each sit of your groups."
    public let sits: Bool
    public let reminderLabel = "My daily reminder"
    /// Names the time of "Remind me to sit at", or says to set it first.
    public let reminderHint: String
    public let reminder: Bool
    public let sittingLabel = "Someone in my groups starts sitting"
    public let sittingHint = "Only those who show when they sit. Never while you sit yourself."
    public let sitting: Bool
    public let submitLabel = "Save notification choices"

    public init(devices: [PushDevice], choices: PushChoices, reminderMinutes: Int?, timeZone: TimeZone) {
        self.devices = devices.map { PushDeviceRowViewModel($0, timeZone: timeZone) }
        noDevices = devices.isEmpty ? "No device gets notifications yet." : nil
        (sits, reminder, sitting) = (choices.sits, choices.reminder, choices.sitting)
        reminderHint =
            reminderMinutes.map { "Every day at \(SettingsViewModel.timeOfDay($0)) (“Remind me to sit at”, above)." }
            ?? "Set “Remind me to sit at” above for a daily reminder."
    }

    /// The section of `person`, or nil when their devices cannot be read (the page shows the
    /// rest).
    public static func load(person: Person, push: any PushRepository) async -> NotificationsSectionViewModel? {
        do {
            async let devices = push.devices(of: person.id)
            async let choices = push.choices(of: person.id)
            return NotificationsSectionViewModel(
                devices: try await devices, choices: try await choices, reminderMinutes: person.reminderMinutes,
                timeZone: person.timeZone)
        } catch {
            return nil
        }
    }

    public static let on = "Notifications are on for this device."
    public static let removed = "This device no longer gets notifications."
    public static let saved = "Notification choices saved."
    public static let noSuchDevice = "There is no such device."

    /// Why a subscription was refused (400), by what was wrong.
    public enum Refusal: Sendable, Equatable {
        case noEndpoint, malformedEndpoint, notHTTPS, unknownService, badKey, badAuth

        public var message: String {
            switch self {
            case .noEndpoint: "The subscription has no endpoint."
            case .malformedEndpoint: "The endpoint is not an address a push service gives."
            case .notHTTPS: "The endpoint must use https."
            case .unknownService: "The endpoint is not at a push service Sangha sends to."
            case .badKey: "p256dh must be the browser’s P-256 public key, base64url."
            case .badAuth: "auth must be 16 bytes, base64url."
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
    public static func subscribe(_ device: PushDevice, push: any PushRepository) async -> Subscribed {
        do {
            _ = try await push.add(device, limit: PushDevice.limitPerPerson)
            return .added(on)
        } catch {
            return .failed(StorageMessage.text(for: error, otherwise: "The device could not be saved. Try again."))
        }
    }

    /// "Remove": the device gets nothing more.
    public static func remove(device id: Int, of person: Person, push: any PushRepository) async -> SubmitOutcome<
        ErrorPageViewModel
    > {
        do {
            guard try await push.remove(device: id, of: person.id) else { return .notFound }
            return .redirect(Redirect(to: Paths.settings.url + "#notifications", flash: .success(removed)))
        } catch {
            return .refused(
                Redirect(
                    to: Paths.settings.url + "#notifications",
                    flash: .error(
                        title: "The device was not removed.",
                        message: StorageMessage.text(for: error, otherwise: "Please try again."))))
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
    public static func choose(_ input: ChoicesInput, person: Person, push: any PushRepository) async -> SubmitOutcome<
        ErrorPageViewModel
    > {
        do {
            try await push.setChoices(input.choices, of: person.id)
            return .redirect(Redirect(to: Paths.settings.url + "#notifications", flash: .success(saved)))
        } catch {
            return .refused(
                Redirect(
                    to: Paths.settings.url + "#notifications",
                    flash: .error(
                        title: "The choices were not saved.",
                        message: StorageMessage.text(for: error, otherwise: "Please try again."))))
        }
    }
}

/// A device in Settings: "Firefox on Linux", added when, and "Remove".
public struct PushDeviceRowViewModel: Sendable, Equatable, Encodable {
    public let name: String
    public let added: String
    public let removeURL: String
    public let removeLabel = "Remove"
    /// The button's accessible name: "Remove Firefox on Linux".
    public let removeName: String

    public init(_ device: PushDevice, timeZone: TimeZone) {
        name = device.name
        added = "Added " + CalendarText.shortDate(device.createdAt, timeZone: timeZone)
        removeURL = Paths.removePushDevice.url(device.id)
        removeName = "Remove \(device.name)"
    }
}
