import Foundation
import Resilience
import Synchronization
import Testing

/// `DeadlineWatch` alone: the clients' own deadlines end most silent calls in their tests
/// before the watch does (the push client's), so what the watch does is shown here.
@Suite("The watch over the calls under way")
struct DeadlineWatchTests {
    @Test("A call no one answers is ended once its timeout has passed")
    func unanswered() async {
        let watch = DeadlineWatch(timeout: .milliseconds(100))
        let started = ContinuousClock.now
        let endedBy = await withCheckedContinuation { continuation in
            let waiting = Mutex<CheckedContinuation<String, Never>?>(continuation)
            let finish: @Sendable (String) -> Void = { by in
                waiting.withLock {
                    $0?.resume(returning: by); $0 = nil
                }
            }
            _ = watch.add { finish("the watch") }
            // Should the watch never end it, this answer does, and the test fails, not hangs.
            Task {
                try? await Task.sleep(for: .seconds(30))
                finish("an answer after 30 s")
            }
        }
        let waited = ContinuousClock.now - started
        #expect(endedBy == "the watch")
        // Never before the timeout; the upper bound leaves room for a loaded machine.
        #expect(waited >= .milliseconds(100) && waited < .seconds(30), "\(waited)")
    }

    @Test("A call taken off the watch (answered) is not ended by it, however long it then takes")
    func removed() async throws {
        let watch = DeadlineWatch(timeout: .milliseconds(100))
        let ended = Mutex(0)
        watch.remove(watch.add { ended.withLock { $0 += 1 } })
        // A second call left on the watch shows it has looked over its calls meanwhile.
        let other = Mutex(0)
        _ = watch.add { other.withLock { $0 += 1 } }
        for _ in 0..<300 where other.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(other.withLock { $0 } == 1, "the call left on the watch was ended")
        #expect(ended.withLock { $0 } == 0, "the call taken off was not")
    }

    @Test("Each call is ended once, and a call added after the watch had none left is ended too")
    func once() async throws {
        let watch = DeadlineWatch(timeout: .milliseconds(50))
        let ends = Mutex(0)
        for _ in 0..<3 { _ = watch.add { ends.withLock { $0 += 1 } } }
        for _ in 0..<300 where ends.withLock({ $0 }) < 3 { try await Task.sleep(for: .milliseconds(100)) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(ends.withLock { $0 } == 3)
        _ = watch.add { ends.withLock { $0 += 1 } }
        for _ in 0..<300 where ends.withLock({ $0 }) < 4 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(ends.withLock { $0 } == 4)
    }
}
