import Synchronization

/// Makes family codes that are free on this device and, when the remote answers, on
/// the remote too (seed 001's `generateUniqueCodeSafely(checkLocal:checkRemote:)`).
///
/// One generator serves the whole feature, so two creations at once draw different
/// codes; the store's UNIQUE constraint is the final guard all the same. When the
/// remote cannot be reached the code is checked locally only and the result says so:
/// the creation then goes local-only, and a clash found at sync time (409) is
/// resolved there with a new code.
public final class FamilyCodeGenerator: Sendable {
    /// A code, and what was learned about the remote while choosing it.
    public struct Choice: Sendable, Equatable {
        public var code: FamilyCode
        /// The remote confirmed the code is free.
        public var checkedRemotely: Bool
        /// Why the remote was not asked or did not answer, if so.
        public var remoteProblem: FamilyRemoteError?
    }

    /// Codes drawn before giving up: with 32^6 codes, several clashes in a row mean
    /// something else is wrong.
    public let maxAttempts: Int
    private let rng: Mutex<FamilyRandom>

    public init(seed: UInt64, maxAttempts: Int = 8) {
        rng = Mutex(FamilyRandom(seed: seed))
        self.maxAttempts = max(1, maxAttempts)
    }

    /// The next code of the stream.
    public func next() -> FamilyCode {
        rng.withLock { FamilyCode.random(using: &$0) }
    }

    /// A code free locally (`isTakenLocally`) and, if the remote answers, remotely.
    public func uniqueCode(isTakenLocally: (FamilyCode) async throws -> Bool,
                           remote: (any FamilyRemote)?) async throws(FamilyCreationError) -> Choice {
        let remoteProblem: FamilyRemoteError? = remote == nil ? .notConfigured : nil
        for _ in 0..<maxAttempts {
            let code = next()
            do {
                if try await isTakenLocally(code) { continue }
            } catch {
                throw .codeGenerationFailed(underlying: "local check: \(error)")
            }
            guard let remote, remoteProblem == nil else {
                return Choice(code: code, checkedRemotely: false, remoteProblem: remoteProblem)
            }
            do {
                if try await remote.lookup(code.text) != nil { continue }
                return Choice(code: code, checkedRemotely: true, remoteProblem: nil)
            } catch {
                // Degrade: the code is checked locally only; the sync settles any clash.
                return Choice(code: code, checkedRemotely: false, remoteProblem: error)
            }
        }
        throw .codeGenerationFailed(underlying: "no free code in \(maxAttempts) draws")
    }
}
