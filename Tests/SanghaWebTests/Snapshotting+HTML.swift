import SnapshotTesting

extension Snapshotting where Value == String, Format == String {
    /// Rendered HTML, stored as a readable `.html` file and compared line by line.
    static var html: Snapshotting {
        var snapshotting = Snapshotting.lines
        snapshotting.pathExtension = "html"
        return snapshotting
    }
}
