import Foundation

/// The development gallery's index: every fixture, linked to its rendering.
public struct GalleryViewModel: Sendable, Equatable, Encodable {
    public struct Entry: Sendable, Equatable, Encodable {
        public let name: String
        public let template: String
        public let url: String
    }

    public let layout: LayoutViewModel
    public let entries: [Entry]

    public init(fixtures: [(name: String, template: String)], context: PageContext) {
        layout = LayoutViewModel(title: "Gallery", section: nil, context: context)
        entries = fixtures.map { Entry(name: $0.name, template: $0.template, url: "/_gallery/\($0.name)") }
    }
}
