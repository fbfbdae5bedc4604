/// The retry a screen offers after a failed operation (seed 002, phase 5): the failed
/// operation is kept, repeated at most ``limit`` times in a row, and when the retries
/// run out the user is told plainly what to do instead
/// (``PresentedError/retriesExhaustedMessage``). The favourites, visits and quiz
/// screens share it, so the three behave alike.
struct BoundedRetry<Operation> {
    /// Retries allowed in a row after a failure.
    let limit: Int
    /// Retries used since the last success.
    private(set) var count = 0
    /// The operation a retry repeats, nil when the last one worked.
    private(set) var failed: Operation?

    init(limit: Int) {
        self.limit = limit
    }

    /// What ``next()`` hands back.
    enum Next {
        /// Repeat this operation (the attempt is already counted).
        case attempt(Operation)
        /// Nothing failed: there is nothing to repeat.
        case nothingFailed
        /// Every retry was used: show ``PresentedError/retriesExhaustedMessage``.
        case exhausted
    }

    /// Whether a retry is offered now.
    var isOffered: Bool { failed != nil && count < limit }

    mutating func recordFailure(_ operation: Operation) {
        failed = operation
    }

    mutating func recordSuccess() {
        failed = nil
        count = 0
    }

    /// The next attempt, counted; or why there is none.
    mutating func next() -> Next {
        guard let failed else { return .nothingFailed }
        guard count < limit else { return .exhausted }
        count += 1
        return .attempt(failed)
    }
}

/// A screen that offers ``BoundedRetry``: it says how to run an operation and how to
/// show that the retries ran out; ``retryFailedOperation()`` is the retry button.
@MainActor
protocol RetryingScreen: AnyObject {
    associatedtype Operation
    var retries: BoundedRetry<Operation> { get set }
    /// Whether an error is on screen now (a retry with nothing failed reports that).
    var isShowingError: Bool { get }
    func perform(_ operation: Operation) async -> Bool
    /// Shows ``PresentedError/retriesExhaustedMessage`` in place of the error.
    func showRetriesExhausted()
}

extension RetryingScreen {
    /// Repeats the failed operation, at most the budget's limit in a row.
    func retryFailedOperation() async -> Bool {
        switch retries.next() {
        case .nothingFailed:
            return !isShowingError
        case .exhausted:
            showRetriesExhausted()
            return false
        case let .attempt(operation):
            return await perform(operation)
        }
    }
}
