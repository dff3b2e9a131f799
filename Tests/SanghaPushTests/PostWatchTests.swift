import Foundation
import Testing

@testable import SanghaPush

/// `PostWatch` alone: the client's own deadline ends most silent posts in the sender's tests
/// before the watch does, so what the watch does is shown here.
@Suite("The watch over the posts under way")
struct PostWatchTests {
    @Test("A post no one answers is ended once its timeout has passed")
    func unanswered() async {
        let watch = PostWatch(timeout: .milliseconds(100))
        let started = ContinuousClock.now
        let outcome = await withCheckedContinuation { continuation in
            let race = Race(continuation)
            _ = watch.add(race)
            // Should the watch never end it, this answer does, and the test fails, not hangs.
            Task {
                try? await Task.sleep(for: .seconds(30))
                race.finish(.success(.delivered))
            }
        }
        let waited = ContinuousClock.now - started
        // Never before the timeout; the upper bound leaves room for a loaded machine.
        #expect(waited >= .milliseconds(100) && waited < .seconds(30), "\(waited)")
        guard case .failure(let failure) = outcome else {
            Issue.record("ended by \(outcome), not by the watch")
            return
        }
        #expect(failure.description.hasPrefix("no answer within"))
    }

    @Test("A post taken off the watch (answered) is not ended by it, however long it then takes")
    func removed() async {
        let watch = PostWatch(timeout: .milliseconds(100))
        let outcome = await withCheckedContinuation { continuation in
            let race = Race(continuation)
            watch.remove(watch.add(race))
            // Answered well past the timeout: the watch has looked over its posts several times.
            Task {
                try? await Task.sleep(for: .milliseconds(500))
                race.finish(.success(.delivered))
            }
        }
        guard case .success(.delivered) = outcome else {
            Issue.record("ended by the watch: \(outcome)")
            return
        }
    }
}
