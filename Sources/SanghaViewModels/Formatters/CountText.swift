/// A count with its noun: `1 session`, `12 sessions`.
enum CountText {
    static func of(_ count: Int, _ singular: String) -> String {
        "\(count) \(singular)\(count == 1 ? "" : "s")"
    }
}
