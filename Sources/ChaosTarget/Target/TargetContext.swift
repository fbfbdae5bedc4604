import Foundation

/// Where and how one launch of a target runs.
public struct TargetContext: Sendable {
    /// The app's private data folder; it survives relaunches within one case.
    public var dataDirectory: URL
    /// The variant asked for (`--variant`): one of those the target declares
    /// (`fragile`, `fixed`); empty when none was asked for (the target's default, then).
    public var variant: String
    /// Target options: the scenario's `options:` and the run's `--option KEY=VALUE`.
    public var options: [String: String]
    /// The case's seed, for any randomness in the target.
    public var seed: UInt64
    /// Where the app reaches each remote it declares (``ChaosTarget/remotes``), by name:
    /// the fault proxy in front of it. A remote the case runs without is absent.
    public var remotes: [String: RemoteAddress]
    /// The servers themselves, behind the proxies: each remote of this case that is an
    /// address (``Remote/address(_:host:port:systems:probes:)``), by name. For what the app
    /// never does and no fault may meet — making the case's database on a shared server —
    /// never for the app: a fault acts only on what goes through the proxy.
    public var servers: [String: RemoteAddress] = [:]

    public init(dataDirectory: URL, variant: String, options: [String: String] = [:], seed: UInt64 = 1,
                remotes: [String: RemoteAddress] = [:]) {
        self.dataDirectory = dataDirectory
        self.variant = variant
        self.options = options
        self.seed = seed
        self.remotes = remotes
    }

    /// The path of `file` in the data folder (which exists before the target is made).
    public func path(_ file: String) -> String {
        dataDirectory.appendingPathComponent(file).path
    }

    /// A name of this case's own, the same at each of its launches and unlike any other
    /// case's: `chaos_` and 16 hex digits, a valid database, schema or key-prefix name
    /// anywhere. Name the case's database on a shared server with it.
    public var caseName: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a of the data folder: stable across processes, unlike Hasher
        for byte in dataDirectory.path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return "chaos_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The arguments Chaos starts a worker with, which ``init(workerArguments:)`` reads:
    /// `--data DIR --variant V --seed N`, then `--option KEY=VALUE` and `--remote
    /// NAME=HOST:PORT`, by key.
    package var workerArguments: [String] {
        var arguments = ["--data", dataDirectory.path, "--variant", variant, "--seed", String(seed)]
        for (key, value) in options.sorted(by: { $0.key < $1.key }) { arguments += ["--option", "\(key)=\(value)"] }
        for (name, address) in remotes.sorted(by: { $0.key < $1.key }) { arguments += ["--remote", "\(name)=\(address)"] }
        return arguments
    }

    /// Reads the arguments Chaos starts a worker with:
    /// `--data DIR --variant V --seed N [--option KEY=VALUE ...]`.
    ///
    /// A hand-written reader, not ArgumentParser: a run starts hundreds of workers, and
    /// every millisecond of a worker's start is paid each time.
    package init(workerArguments arguments: [String]) throws(TargetError) {
        var data: String?
        var variant = ""
        var seed: UInt64 = 1
        var options: [String: String] = [:]
        var remotes: [String: RemoteAddress] = [:]
        var words = arguments.makeIterator()
        while let word = words.next() {
            guard ["--data", "--variant", "--seed", "--option", "--remote"].contains(word) else {
                throw TargetError("unknown worker argument '\(word)'; expected --data, --variant, --seed, --option, --remote")
            }
            guard let value = words.next() else { throw TargetError("\(word) needs a value") }
            switch word {
            case "--data": data = value
            case "--variant": variant = value
            case "--seed":
                guard let number = UInt64(value) else { throw TargetError("--seed wants a whole number, got '\(value)'") }
                seed = number
            case "--remote":
                let pair = value.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2, let address = RemoteAddress(pair[1]) else {
                    throw TargetError("--remote wants NAME=HOST:PORT, got '\(value)'")
                }
                remotes[pair[0]] = address
            default:
                let pair = value.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { throw TargetError("--option wants KEY=VALUE, got '\(value)'") }
                options[pair[0]] = pair[1]
            }
        }
        guard let data else { throw TargetError("--data DIR is required: the app's data folder") }
        self.init(dataDirectory: URL(fileURLWithPath: data), variant: variant, options: options, seed: seed, remotes: remotes)
    }
}

/// A request the target cannot serve: an unknown action, a bad argument. Chaos
/// reports it as a problem of the scenario or the target, never as the app's failure.
public struct TargetError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
