import Hummingbird

extension Request {
    /// Whether the `Accept` header ranks `application/json` above `text/html`.
    ///
    /// Browsers list `text/html` first; `curl` and `*/*` get HTML too. Only a client that names
    /// JSON, and prefers it, gets the view model as JSON.
    var prefersJSON: Bool {
        // A browser's header names no JSON: it is not parsed (Foundation's trimming of each part
        // was 1.4 % of the editor's instructions).
        guard let accept = headers[.accept], Self.namesJSON(accept) else { return false }
        var best: (json: Double, html: Double) = (0, 0)
        for (index, part) in accept.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = pieces.first?.lowercased() else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 1.0
            }
            // An earlier entry wins a tie.
            let weight = quality - Double(index) * 1e-6
            if type == "application/json" { best.json = max(best.json, weight) }
            if type == "text/html" { best.html = max(best.html, weight) }
        }
        return best.json > 0 && best.json > best.html
    }

    /// Whether `accept` holds "json", in any case.
    static func namesJSON(_ accept: String) -> Bool {
        ASCIISearch.contains("json", in: accept, anyCase: true)
    }

    /// Whether a page's script made this request to change something: a post (any method but
    /// GET and HEAD) that prefers JSON. The scripts send `Accept: application/json` with every
    /// `fetch` that posts; a form's post never does (browsers ask for HTML first). Such a post
    /// is answered with its outcome as JSON and never sets or clears the flash
    /// (`PageRenderer.redirect(_:refused:for:)`, `PageContextMiddleware`).
    var isScriptPost: Bool {
        method != .get && method != .head && prefersJSON
    }
}
