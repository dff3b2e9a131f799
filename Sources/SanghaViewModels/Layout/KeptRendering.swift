import Foundation

/// A view model's rendered bytes, kept with it: a view model the app keeps across requests (a
/// person's drawing of their days, their history's table of sits) is rendered once and written
/// again as bytes while it is kept. The compiled templates use it for any section whose view
/// model has a `rendering: KeptRendering` (`TemplateOutput.replay`); swift-mustache (`--dev`)
/// and the JSON never see it.
///
/// The bytes a section renders depend on the view model and on where it begins: the template's
/// place (`site`, one number per section in the compiled templates) and the indentation owed at
/// its start. Kept bytes are written again only for the same three; a view model is immutable,
/// so they are never stale. One rendering is kept, the last.
public final class KeptRendering: @unchecked Sendable, Equatable {
    /// The bytes a section wrote, and where it began and left the indentation owed.
    public struct Entry: Sendable {
        public let site: Int
        public let indentation: String
        public let pending: String?
        public let bytes: [UInt8]
        public let pendingAfter: String?

        public init(site: Int, indentation: String, pending: String?, bytes: [UInt8], pendingAfter: String?) {
            (self.site, self.indentation, self.pending) = (site, indentation, pending)
            (self.bytes, self.pendingAfter) = (bytes, pendingAfter)
        }
    }

    private let lock = NSLock()
    private var entry: Entry?

    public init() {}

    /// The bytes kept for a section at `site` that began with this indentation owed.
    public func entry(site: Int, indentation: String, pending: String?) -> Entry? {
        guard let entry = lock.withLock({ entry }), entry.site == site, entry.indentation == indentation,
            entry.pending == pending
        else { return nil }
        return entry
    }

    public func keep(_ entry: Entry) {
        lock.withLock { self.entry = entry }
    }

    /// The rendering kept last, if any.
    public var last: Entry? { lock.withLock { entry } }

    /// Not part of what a view model shows: two view models equal but for it are equal.
    public static func == (_: KeptRendering, _: KeptRendering) -> Bool { true }
}
