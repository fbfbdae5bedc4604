/// What can stop a quiz or a change to a vocabulary set, besides the store itself
/// (seed 000's `AppError`; its database cases are ``DatabaseError`` and the launch's
/// ``StoreHealth`` here). Each case says, in plain words, what happened and what to do.
public enum VocabularyError: Error, Sendable, Equatable {
    /// A quiz needs `required` words and the set has `available`.
    case insufficientVocabularyWords(required: Int, available: Int)
    /// The set was not found (removed, or lost with data that could not be recovered).
    case setNotFound
    /// A setting of the app's build is not valid (seed 000's `invalidConfiguration`):
    /// what depends on it is not offered.
    case invalidConfiguration(setting: String)

    public var userMessage: String {
        switch self {
        case let .insufficientVocabularyWords(required, available):
            let has = switch available {
            case 0: "This set has no words yet."
            case 1: "This set has only 1 word."
            default: "This set has only \(available) words."
            }
            return "\(has) A quiz needs at least \(required) words."
        case .setNotFound:
            return "This vocabulary set could not be found. It may have been removed."
        case .invalidConfiguration:
            return "The help pages can't be opened from this version of the app."
        }
    }

    public var recoverySuggestion: String {
        switch self {
        case let .insufficientVocabularyWords(required, available):
            let missing = max(1, required - available)
            return "Add \(missing) more \(missing == 1 ? "word" : "words") to this set, then start the quiz again."
        case .setNotFound:
            return "Go back to your sets and choose another one."
        case .invalidConfiguration:
            return "Update the app, or contact support for help."
        }
    }
}
