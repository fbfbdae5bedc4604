/// The worker's reply to one request: its id, the answer to what was asked, and where
/// the worker stands after it (``WorkerStatus``, said whatever was asked). On the wire
/// one object with `id`, `ok` and the fields of its answer and status, each left out
/// when it says nothing (docs/TARGETS.md §5).
package struct WorkerReply: Codable, Sendable, Equatable {
    package var id: Int
    package var answer: Answer
    package var status: WorkerStatus

    /// The answer to the request itself, with what each kind of answer carries.
    package enum Answer: Sendable, Equatable {
        /// Done, with nothing to tell: `arm`, `disarm`, `stop`, `track-writes`,
        /// `count-points`, a `power-loss` armed for later.
        case done
        /// The app's health (`launch`) or a probe's answer (`probe`).
        case value(ScenarioValue)
        /// A `perform` that did what the user asked: what it gave, and whether it showed
        /// the user their data (what recovery is measured to).
        case actionDone(value: ScenarioValue?, isRead: Bool)
        /// A `perform` the app failed: what it told the user, the technical error, and
        /// what it gave besides. A failure of the app's (`failure: app` on the wire).
        case actionFailed(userMessage: String?, error: String?, value: ScenarioValue?)
        /// `snapshot`: table → record key → canonical row text.
        case snapshot([String: [String: String]])
        /// `describe`: what the target is made of.
        case declaration(TargetDeclaration)
        /// The request was not served: what failed, and the error in words (never parsed).
        case failed(WorkerFailure, error: String?)
    }

    package init(id: Int = 0, _ answer: Answer, status: WorkerStatus = WorkerStatus()) {
        self.id = id
        self.answer = answer
        self.status = status
    }

    private enum Field: String, CodingKey { case id, ok, value, error, failure, userMessage, isRead, snapshot, declaration }

    /// Reads every field a reply may have, as a line of any target may hold any of them,
    /// then the answer they make: a failed reply that does not say what failed is the
    /// app's; a null `value` is no value.
    package init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Field.self)
        id = try fields.decode(Int.self, forKey: .id)
        let ok = try fields.decode(Bool.self, forKey: .ok)
        let value = try fields.decodeIfPresent(ScenarioValue.self, forKey: .value)
        let error = try fields.decodeIfPresent(String.self, forKey: .error)
        let failure = try fields.decodeIfPresent(WorkerFailure.self, forKey: .failure) ?? .app
        let userMessage = try fields.decodeIfPresent(String.self, forKey: .userMessage)
        let isRead = try fields.decodeIfPresent(Bool.self, forKey: .isRead)
        let snapshot = try fields.decodeIfPresent([String: [String: String]].self, forKey: .snapshot)
        let declaration = try fields.decodeIfPresent(TargetDeclaration.self, forKey: .declaration)
        status = try WorkerStatus(from: decoder)
        switch (ok, failure) {
        case (false, .app) where isRead != nil || userMessage != nil:
            answer = .actionFailed(userMessage: userMessage, error: error, value: value)
        case (false, _): answer = .failed(failure, error: error)
        case (true, _):
            answer = if let declaration { .declaration(declaration) }
                else if let snapshot { .snapshot(snapshot) }
                else if let isRead { .actionDone(value: value, isRead: isRead) }
                else if let value { .value(value) }
                else { .done }
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Field.self)
        try fields.encode(id, forKey: .id)
        try fields.encode(answer.ok, forKey: .ok)
        switch answer {
        case .done: break
        case let .value(value): try fields.encode(value, forKey: .value)
        case let .actionDone(value, isRead):
            try fields.encodeIfPresent(value, forKey: .value)
            try fields.encode(isRead, forKey: .isRead)
        case let .actionFailed(userMessage, error, value):
            try fields.encodeIfPresent(userMessage, forKey: .userMessage)
            try fields.encodeIfPresent(error, forKey: .error)
            try fields.encodeIfPresent(value, forKey: .value)
            try fields.encode(WorkerFailure.app, forKey: .failure)
            try fields.encode(false, forKey: .isRead)
        case let .snapshot(snapshot): try fields.encode(snapshot, forKey: .snapshot)
        case let .declaration(declaration): try fields.encode(declaration, forKey: .declaration)
        case let .failed(failure, error):
            try fields.encodeIfPresent(error, forKey: .error)
            try fields.encode(failure, forKey: .failure)
        }
        try status.encode(to: encoder)
    }
}

extension WorkerReply.Answer {
    /// The answer to a `perform`: what the action came to, as the user saw it.
    package init(_ result: ActionResult) {
        self = result.ok ? .actionDone(value: result.value, isRead: result.isRead)
            : .actionFailed(userMessage: result.userMessage, error: result.error, value: result.value)
    }

    /// What failed; nil when the request was served (the wire's `ok`).
    package var failure: WorkerFailure? {
        switch self {
        case let .failed(failure, _): failure
        case .actionFailed: .app
        case .done, .value, .actionDone, .snapshot, .declaration: nil
        }
    }

    /// The request was served: an action did what the user asked, or the worker did what
    /// was asked.
    package var ok: Bool { failure == nil }

    /// A failure in words: what the app told the user, else the technical error; nil
    /// when nothing failed or nothing was said.
    package var failureText: String? {
        switch self {
        case let .actionFailed(userMessage, error, _): userMessage ?? error
        case let .failed(_, error): error
        case .done, .value, .actionDone, .snapshot, .declaration: nil
        }
    }

    /// An action that showed the user their data: what recovery is measured to.
    package var isRead: Bool {
        if case .actionDone(_, isRead: true) = self { true } else { false }
    }
}

/// What failed when a reply is not ok.
package enum WorkerFailure: String, Codable, Sendable, Equatable {
    /// The target refused the request (a ``TargetError``): an unknown action or probe, a
    /// bad argument, a request without what it needs. The scenario's or Chaos's problem,
    /// not the app's: the case is errored.
    case target
    /// The app's own failure: an action that failed, a launch, probe, snapshot or stop
    /// that threw. What the case judges.
    case app
    /// The worker could not do Chaos's part of a request (arm a fault, keep writes, read
    /// the request): the case is errored.
    case control
}
