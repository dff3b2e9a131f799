import SanghaCore
import Synchronization
import Testing

@Suite("Memo")
struct MemoTests {
    @Test("The same input gives the kept result without calling again; another input calls again")
    func lastInput() {
        let memo = Memo<[Int], String>()
        let calls = Mutex(0)
        let describe = { (numbers: [Int]) -> String in
            calls.withLock { $0 += 1 }
            return numbers.map(String.init).joined(separator: ",")
        }
        #expect(memo.value(for: [1, 2], describe) == "1,2")
        #expect(memo.value(for: [1, 2], describe) == "1,2")
        #expect(calls.withLock { $0 } == 1)
        #expect(memo.value(for: [3], describe) == "3")
        #expect(memo.value(for: [1, 2], describe) == "1,2")
        #expect(calls.withLock { $0 } == 3)
    }
}
