import Synchronization

/// A function's result for the input it was last called with: a one-entry memo for a value
/// asked for again and again with the same input, such as the rows of a list that concurrent
/// pages share.
public final class LastResult<Input: Equatable & Sendable, Output: Sendable>: Sendable {
    private let last = Mutex<(input: Input, output: Output)?>(nil)

    public init() {}

    /// `make(input)`, or what it returned last time if `input` is equal to that call's.
    public func value(for input: Input, _ make: (Input) -> Output) -> Output {
        if let last = last.withLock({ $0 }), last.input == input { return last.output }
        let output = make(input)
        last.withLock { $0 = (input, output) }
        return output
    }
}
