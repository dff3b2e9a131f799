import SanghaCore

/// A group event as a notice's payload on the change feed's channel: one line of text.
extension GroupEvent {
    /// The event as one line of text (a notice's payload).
    var payload: String {
        switch self {
        // "sitting": its name when it was about Sitting now alone, which instances of that version still send.
        case .changed(let group): "sitting \(group)"
        case .membershipEnded(let group, let person): "left \(group) \(person)"
        case .signedOut(let session): "signed-out \(session)"
        // Instances of the version before ignore it (their streams end at the next beat).
        case .signedOutEverywhere(let person, let except): "signed-out-person \(person) \(except ?? "-")"
        }
    }

    init?(payload: String) {
        let parts = payload.split(separator: " ").map(String.init)
        switch (parts.first, parts.count) {
        case ("sitting", 2):
            guard let group = Int(parts[1]) else { return nil }
            self = .changed(group: group)
        case ("left", 3):
            guard let group = Int(parts[1]), let person = Int(parts[2]) else { return nil }
            self = .membershipEnded(group: group, person: person)
        case ("signed-out", 2):
            self = .signedOut(session: parts[1])
        case ("signed-out-person", 3):
            guard let person = Int(parts[1]) else { return nil }
            self = .signedOutEverywhere(person: person, except: parts[2] == "-" ? nil : parts[2])
        default:
            return nil
        }
    }
}
