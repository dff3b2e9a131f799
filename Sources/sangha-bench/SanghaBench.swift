import Foundation
import Hummingbird
import SanghaCore
import SanghaFixtures
import SanghaStore
import SanghaViewModels
import SanghaWeb

/// `sangha-bench`: render times of the friends list (10, 50, 500 rows) and the profile editor,
/// through the compiled templates and through swift-mustache, which must write the same bytes
/// before anything is timed; and the floor any renderer pays, copying those finished bytes into
/// a response body. Each is timed up to the response body the server sends: the compiled
/// templates write into it, swift-mustache builds a String that is then copied into it.
///
/// Each measurement warms up, then times batches of renders and reports the median time per
/// render over the batches, so one noisy moment of a shared machine does not decide it.
@main
struct SanghaBench {
    struct Case {
        let name: String
        let mustache: () -> String
        let compiled: () -> ByteBuffer
    }

    static func main() async throws {
        if CommandLine.arguments.dropFirst().first == "serve-pages" {
            return try await BenchPageServer.run(Array(CommandLine.arguments.dropFirst(2)))
        }
        if CommandLine.arguments.dropFirst().first == "push-cost" {
            return PushCost.run(Array(CommandLine.arguments.dropFirst(2)))
        }
        let root = CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath
        let renderer = try await MustacheTemplates(
            directory: URL(fileURLWithPath: root).appendingPathComponent("Templates"))
        var cases: [Case] = []
        for count in [10, 50, 500] {
            let page = friendsPage(rows: count)
            cases.append(
                Case(
                    // Lists show 50 rows a page: 500 friends are page 1 of 10, with its paging.
                    name: count > PagingViewModel.pageSize
                        ? "friends list, \(count) friends (first page)" : "friends list, \(count) rows",
                    mustache: { renderer.render(page) },
                    compiled: { page.compiledHTMLBuffer() }
                )
            )
        }
        for (name, editor) in [
            ("profile editor", ProfileEditorViewModel.Fixtures.warmUpOn),
            ("profile editor, every section and sound on", fullEditor),
        ] {
            cases.append(
                Case(
                    name: name,
                    mustache: { renderer.render(editor) },
                    compiled: { editor.compiledHTMLBuffer() }
                )
            )
        }

        print(
            "| page | copying the finished bytes (µs) | compiled templates (µs) | compiled ÷ copying "
                + "| swift-mustache (µs) | compiled ÷ swift-mustache | bytes |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        var largestRatio = 0.0
        for item in cases {
            let expected = item.mustache()
            for (label, output) in [("compiled", String(buffer: item.compiled()))] where output != expected {
                let lines = (output.components(separatedBy: "\n"), expected.components(separatedBy: "\n"))
                let line = zip(lines.0, lines.1).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? 0
                FileHandle.standardError.write(
                    Data(
                        ("\(item.name): the \(label) output differs from swift-mustache's at line \(line + 1):\n"
                            + "  \(lines.0.count > line ? lines.0[line] : "(end)")\n"
                            + "  \(lines.1.count > line ? lines.1[line] : "(end)")\n").utf8
                    )
                )
                exit(1)
            }
            let copy = medianMicroseconds { ByteBuffer(string: expected).readableBytes }
            let compiled = medianMicroseconds { item.compiled().readableBytes }
            let mustache = medianMicroseconds { ByteBuffer(string: item.mustache()).readableBytes }
            print(
                "| \(item.name) | \(format(copy)) | \(format(compiled)) | \(format(compiled / copy))× "
                    + "| \(format(mustache)) | \(format(compiled / mustache))× | \(expected.utf8.count) |"
            )
            largestRatio = max(largestRatio, compiled / mustache)
        }
        print("")
        print("Largest compiled ÷ swift-mustache: \(format(largestRatio))×")
        try await profilePageParts()
        try await friendsPageParts()
    }

    /// The parts of GET /friends that are not the FriendService's own work.
    static func friendsPageParts() async throws {
        let friends = (1...50).map {
            Friend(id: $0, firstname: "Friend", lastname: "Number \($0)", phonenumber: "+1555\($0)")
        }
        let body = try JSONEncoder().encode(friends)
        let decode = medianMicroseconds {
            (try? JSONDecoder().decode([Friend].self, from: body))?.count ?? 0
        }
        let rows = medianMicroseconds {
            FriendsListViewModel(
                state: .rows(friends.map { FriendRowViewModel(friend: $0, words: .english) }), context: PageContext()
            ).rows.count
        }
        // As the server builds it: the rows of a list the last page showed too are shared.
        let repository = FriendsRepository(remote: FixedFriendService(friends: friends))
        let cache = FriendRowsCache()
        let shared = try await medianMicroseconds {
            _ = await FriendsListViewModel.load(
                from: repository, context: PageContext(formToken: "t"), rows: { cache.rows(for: $0, words: .english) })
        }
        let page = friendsPage(rows: 50)
        let render = medianMicroseconds { page.compiledHTMLBuffer().readableBytes }
        print("")
        print("| part of GET /friends (50 friends) | median µs |")
        print("| --- | ---: |")
        print("| decoding the FriendService's JSON (\(body.count) bytes) | \(format(decode)) |")
        print("| FriendsListViewModel with its 50 rows, built | \(format(rows)) |")
        print("| the same through the repository, rows shared with the last page | \(format(shared)) |")
        print("| compiled render | \(format(render)) |")
    }

    /// Where a profile page's time goes, part by part, on a real SQLite file.
    static func profilePageParts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sangha-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SanghaDatabase.open(directory: directory)
        let person = try await PeopleStore(database: database).create(
            Person(username: "bench", name: "Bench", createdAt: Date()), passwordHash: "-")
        let store = ProfileStore(database: database, owner: person.id)
        let profile = try await store.create(.new(named: "Bench"))
        let read = try await medianMicroseconds {
            // A new store and memory: from the file.
            _ = try await ProfileStore(database: database, owner: person.id).get(id: profile.id)
        }
        let load = try await medianMicroseconds {
            _ = try await store.get(id: profile.id)
        }
        let page = ProfileEditorViewModel(profile: profile, context: PageContext(formToken: "0123456789abcdef"))
        let viewModel = medianMicroseconds {
            ProfileEditorViewModel(profile: profile, context: PageContext(formToken: "t")).heading.utf8.count
        }
        let render = medianMicroseconds { page.compiledHTMLBuffer().readableBytes }
        let fullViewModel = medianMicroseconds {
            ProfileEditorViewModel(profile: everythingOn, context: PageContext(formToken: "t")).heading.utf8.count
        }
        let fullRender = medianMicroseconds { fullEditor.compiledHTMLBuffer().readableBytes }
        print("")
        print("| part of GET /profiles/{id} | median µs |")
        print("| --- | ---: |")
        print("| a profile read from SQLite (GRDB DatabasePool, JSON segments) | \(format(read)) |")
        print("| ProfileStore.get, kept in memory after the first read | \(format(load)) |")
        print("| ProfileEditorViewModel from the profile | \(format(viewModel)) |")
        print("| compiled render | \(format(render)) |")
        print("| ProfileEditorViewModel, every section and sound on | \(format(fullViewModel)) |")
        print("| its compiled render | \(format(fullRender)) |")
    }

    /// The heaviest editor: Warm Up and Cool Down on, every sound enabled.
    static let everythingOn: Profile = {
        var profile = Profile.new(named: "Full")
        (profile.id, profile.version, profile.duration) = (2, 2, 1200)
        for segment in [SegmentType.warmUp, .coolDown] {
            profile[segment].enabled = true
            for sound in SoundType.allCases {
                profile[segment][sound: sound].enabled = true
                profile[segment][sound: sound].name = "Bowl"
            }
        }
        return profile
    }()

    static let fullEditor = ProfileEditorViewModel(
        profile: everythingOn, context: PageContext(formToken: "0123456789abcdef0123456789abcdef"))

    static func medianMicroseconds(_ work: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        for _ in 0..<200 { try await work() }
        var samples: [Double] = []
        for _ in 0..<15 {
            let start = clock.now
            for _ in 0..<200 { try await work() }
            let elapsed = clock.now - start
            samples.append(
                (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 1e6 / 200)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    static func friendsPage(rows count: Int) -> FriendsListViewModel {
        let rows = (1...count).map { index in
            FriendRowViewModel(
                friend: Friend(
                    id: index, firstname: "Friend", lastname: "Number \(index)", phonenumber: "+1555\(index)"),
                words: .english)
        }
        return FriendsListViewModel(
            state: .rows(rows), context: PageContext(formToken: "0123456789abcdef0123456789abcdef"))
    }

    /// Median time of one render (which returns its size in bytes), in microseconds, over 15
    /// batches of ~20 ms after a warm-up.
    static func medianMicroseconds(_ render: () -> Int) -> Double {
        let clock = ContinuousClock()
        var sink = 0
        let warmUpEnd = clock.now + .milliseconds(200)
        var perBatch = 0
        while clock.now < warmUpEnd {
            sink &+= render()
            perBatch += 1
        }
        perBatch = max(1, perBatch / 10)  // about 20 ms a batch
        var samples: [Double] = []
        for _ in 0..<15 {
            let start = clock.now
            for _ in 0..<perBatch { sink &+= render() }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            samples.append(seconds * 1e6 / Double(perBatch))
        }
        if sink == 42 { print("") }  // keeps the renders from being optimized away
        samples.sort()
        return samples[samples.count / 2]
    }

    /// Three significant digits at most: 1234 → `1234`, 12.34 → `12.34`, 0.002345 → `0.0023`.
    static func format(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 0.01 || value == 0 { return String(format: "%.2f", value) }
        return String(format: "%.2g", value)
    }
}
