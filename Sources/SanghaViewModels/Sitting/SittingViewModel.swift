import Foundation
import SanghaCore

/// The sitting page, `/profiles/{id}/sit`: the profile's timeline, when each section begins and
/// each sound rings, written out so the page says what will happen without script; the script
/// reads the same rows (their seconds, sound and strokes) to run the session.
public struct SittingViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let editURL: String
    public let totalText: String
    public let totalSeconds: Int
    public let events: [TimelineEventViewModel]
    /// The section the session begins with, shown before it starts.
    public let firstSection: String

    public init(profile: Profile, context: PageContext) {
        let title = profile.name.isEmpty ? "Profile" : profile.name
        layout = LayoutViewModel(title: "Sit: \(title)", section: .profiles, context: context)
        heading = title
        editURL = "/profiles/\(profile.id)"
        let timeline = profile.timeline
        totalSeconds = timeline.duration
        totalText = DurationFormatter.string(from: timeline.duration)
        events = TimelineEventViewModel.events(of: timeline, assets: context.assets)
        firstSection = timeline.sections.first?.segment.title ?? SegmentType.main.title
    }

    /// What `GET /profiles/{id}/sit` shows.
    public static func load(id: Int, from repository: any ProfileRepository, context: PageContext) async
        -> LoadOutcome<SittingViewModel>
    {
        do {
            guard let profile = try await repository.get(id: id) else { return .notFound }
            return .page(SittingViewModel(profile: profile, context: context))
        } catch {
            return .failed(
                ErrorPageViewModel(
                    failure: .storage,
                    heading: "Profiles are unavailable",
                    message: "Profiles could not be read or saved. Please try again.",
                    context: context
                ), .storage)
        }
    }
}

/// A row of the timeline: at `timeText` (`05:00`), what happens.
public struct TimelineEventViewModel: Sendable, Equatable, Encodable {
    public let seconds: Int
    public let timeText: String
    public let text: String
    /// The sound to play, for a ring; nil where a section begins or the session ends.
    public let soundURL: String?
    public let hasSound: Bool
    public let strokes: Int
    /// Where a section begins: its title, which the running session shows from then on.
    public let section: String?

    init(seconds: Int, text: String, soundURL: String? = nil, strokes: Int = 0, section: String? = nil) {
        self.seconds = seconds
        timeText = DurationFormatter.string(from: seconds)
        self.text = text
        self.soundURL = soundURL
        hasSound = soundURL != nil
        self.strokes = strokes
        self.section = section
    }

    /// Each section's start, each ring in order, and the session's end. Where one section ends
    /// and the next begins, the first's end sound comes before the second begins.
    static func events(of timeline: Timeline, assets: AssetURLs) -> [TimelineEventViewModel] {
        var events: [TimelineEventViewModel] = []
        var rings = timeline.rings[...]
        for section in timeline.sections {
            while let ring = rings.first,
                ring.time < section.start || (ring.time == section.start && ring.segment != section.segment)
            {
                events.append(.ring(ring, assets))
                rings.removeFirst()
            }
            events.append(
                TimelineEventViewModel(
                    seconds: section.start, text: "\(section.segment.title) begins", section: section.segment.title))
        }
        events += rings.map { .ring($0, assets) }
        events.append(.text("The session ends", at: timeline.duration))
        return events
    }

    private static func text(_ text: String, at seconds: Int) -> TimelineEventViewModel {
        TimelineEventViewModel(seconds: seconds, text: text)
    }

    private static func ring(_ ring: Timeline.Ring, _ assets: AssetURLs) -> TimelineEventViewModel {
        TimelineEventViewModel(
            seconds: ring.time,
            text: ring.strokes > 1 ? "\(ring.name) rings \(ring.strokes) times" : "\(ring.name) rings",
            soundURL: assets.sound(named: ring.name),
            strokes: ring.strokes
        )
    }
}
