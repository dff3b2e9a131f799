import Foundation
import SanghaCore
import SanghaViewModels
import SanghaWeb

/// `sangha-bench`: render times of the friends list (10, 50, 500 rows) and the profile editor,
/// through the compiled templates, through swift-mustache, and through the hand-written
/// baseline; all three must produce the same bytes before anything is timed.
///
/// Each measurement warms up, then times batches of renders and reports the median time per
/// render over the batches, so one noisy moment of a shared machine does not decide it.
@main
struct SanghaBench {
    struct Case {
        let name: String
        let mustache: () -> String
        let compiled: () -> String
        let baseline: () -> String
    }

    static func main() async throws {
        let root = CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath
        let renderer = try await PageRenderer(
            templatesDirectory: URL(fileURLWithPath: root).appendingPathComponent("Templates")
        )
        var cases: [Case] = []
        for count in [10, 50, 500] {
            let page = friendsPage(rows: count)
            cases.append(
                Case(
                    name: "friends list, \(count) rows",
                    mustache: { renderer.mustacheHTML(page) },
                    compiled: { page.compiledHTML() },
                    baseline: { HandWrittenPages.friendsList(page) }
                )
            )
        }
        let editor = ProfileEditorViewModel.Fixtures.warmUpOn
        cases.append(
            Case(
                name: "profile editor",
                mustache: { renderer.mustacheHTML(editor) },
                compiled: { editor.compiledHTML() },
                baseline: { HandWrittenPages.profileEditor(editor) }
            )
        )

        print("| page | swift-mustache (median µs) | hand-written (median µs) | ratio | bytes |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for item in cases {
            let expected = item.mustache()
            guard item.baseline() == expected else {
                FileHandle.standardError.write(
                    Data("The baseline of \(item.name) differs from the template's output.\n".utf8))
                exit(1)
            }
            let mustache = medianMicroseconds(item.mustache)
            let baseline = medianMicroseconds(item.baseline)
            let ratio = mustache / baseline
            print(
                "| \(item.name) | \(format(mustache)) | \(format(baseline)) | \(format(ratio))× | \(expected.utf8.count) |"
            )
        }
    }

    static func friendsPage(rows count: Int) -> FriendsListViewModel {
        let rows = (1...count).map { index in
            FriendRowViewModel(
                friend: Friend(
                    id: index, firstname: "Friend", lastname: "Number \(index)", phonenumber: "+1555\(index)"),
                formToken: "0123456789abcdef0123456789abcdef"
            )
        }
        return FriendsListViewModel(state: .rows(rows))
    }

    /// Median time of one render, in microseconds, over 15 batches of ~20 ms after a warm-up.
    static func medianMicroseconds(_ render: () -> String) -> Double {
        let clock = ContinuousClock()
        var sink = 0
        let warmUpEnd = clock.now + .milliseconds(200)
        var perBatch = 0
        while clock.now < warmUpEnd {
            sink &+= render().utf8.count
            perBatch += 1
        }
        perBatch = max(1, perBatch / 10)  // about 20 ms a batch
        var samples: [Double] = []
        for _ in 0..<15 {
            let start = clock.now
            for _ in 0..<perBatch { sink &+= render().utf8.count }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            samples.append(seconds * 1e6 / Double(perBatch))
        }
        if sink == 42 { print("") }  // keeps the renders from being optimized away
        samples.sort()
        return samples[samples.count / 2]
    }

    static func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
    }
}
