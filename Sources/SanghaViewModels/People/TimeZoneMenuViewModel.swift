import Foundation
import SanghaCore

/// The settings page's time zone menu: every zone offered, the chosen one selected. Its four
/// hundred options were most of the page (a third of its instructions went to escaping and
/// writing them), and the menu of the usual zones is the same for everyone who chose the same
/// zone: one is kept per zone chosen, with its rendering (`KeptRendering`), at most `limit`;
/// past that, all go. Its JSON is the list of options, as before it was kept.
public struct TimeZoneMenuViewModel: Sendable, Equatable, Encodable {
    public let options: [OptionViewModel]
    /// The menu as rendered, while it is kept.
    public let rendering = KeptRendering()

    /// More than the usual zones (about 440): past it, a person's own zones off the list.
    public static let limit = 500

    public init(options: [OptionViewModel]) {
        self.options = options
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(options)
    }

    /// The menu for a person whose zone is `own`, with `posted` chosen when it is offered (a
    /// save refused shows what was posted); `offered` zones instead of the usual ones (the tests'
    /// short lists). The person's own zone is always offered (one not on the list, say a
    /// browser's), and chosen when what was posted is not an option: no save ever changes it by
    /// accident.
    static func menu(own: String, posted: String?, offered: [String]?) -> TimeZoneMenuViewModel {
        let usual = offered == nil
        let offered = offered.map { $0.map(zoneOption) } ?? zoneOptions
        let hasOwn = usual ? zoneNames.contains(own) : offered.contains { $0.value == own }
        let options = hasOwn ? offered : [zoneOption(own)] + offered
        let zone = posted.flatMap { name in options.contains { $0.value == name } ? name : nil } ?? own
        func make() -> TimeZoneMenuViewModel {
            TimeZoneMenuViewModel(
                options: options.map {
                    $0.value == zone ? OptionViewModel(value: zone, label: $0.label, isSelected: true) : $0
                })
        }
        guard usual else { return make() }
        return kept.value(for: KeptKey(own: hasOwn ? nil : own, chosen: zone), make)
    }

    /// Every zone of `DayClock.timeZoneNames` as an option, labelled once: labelling 440 zones
    /// on every render was two thirds of the page's time.
    static let zoneOptions = DayClock.timeZoneNames.map(zoneOption)
    private static let zoneNames = Set(DayClock.timeZoneNames)

    /// "America/Argentina/Buenos_Aires", shown as "America/Argentina/Buenos Aires".
    static func zoneOption(_ name: String) -> OptionViewModel {
        OptionViewModel(value: name, label: String(name.map { $0 == "_" ? " " : $0 }), isSelected: false)
    }

    /// The menus of the usual zones, by the zone chosen (and the person's own, when not usual).
    private static let kept = KeptValues<KeptKey, TimeZoneMenuViewModel>(limit: limit)

    private struct KeptKey: Hashable {
        let own: String?
        let chosen: String
    }
}
