import Foundation

/// A remote the app talks to — its own server, a fake of its API, a database server —
/// declared by the target so that Chaos can put its fault proxy in front of it and give
/// the app the proxy's address (``TargetContext/remotes``): network faults then act
/// between the two, and every injection is recorded `via proxy`.
///
/// ```swift
/// static var remotes: [Remote] {
///     [.command("sync", executable: serverPath, arguments: ["--port", "{port}", "--data", "{data}"]),
///      .address("postgres", host: "127.0.0.1", port: 5432)]
/// }
/// ```
///
/// A command is started for each case that needs the remote, on a free port of
/// 127.0.0.1 (`{port}` in its arguments and environment), with a folder of its own
/// (`{data}`) that lives as long as the case; Chaos waits until it accepts connections,
/// and ends it, with everything it started, when the case ends. An address is one that
/// already listens (a database server a CI job started); Chaos only checks that it
/// does. Either way the app is only ever given the proxy's address.
public struct Remote: Sendable, Codable, Equatable {
    /// Where the real remote comes from.
    public enum Source: Sendable, Codable, Equatable {
        /// A server Chaos starts for each case.
        case command(executable: String, arguments: [String], environment: [String: String])
        /// A server that already listens.
        case address(host: String, port: Int)
    }

    /// Its name: what a network fault's `remote:` names, and the key of
    /// ``TargetContext/remotes``.
    public var name: String
    public var source: Source
    /// The systems whose scenarios talk to it (nil: every scenario's, the storage
    /// catalog's included): a case that neither is of one of them, nor arms a network
    /// fault, nor asks one of its probes, runs without it.
    public var systems: [String]?
    /// Probes the controller asks of the remote itself, not through the proxy, so they
    /// answer whatever faults are armed and after the app trapped: a probe's name (a
    /// scenario asks `remote.NAME`) → the HTTP path that answers its value as JSON.
    public var probes: [String: String]
    /// The HTTP path at which the remote answers, as a JSON list, the keys of every record
    /// it holds, in the keys the app acknowledges (`["note:1A2B"]`): the truth the app's
    /// ``ChaosTarget/claims`` are held against (`claims-hold`). Asked of the remote
    /// itself, as a probe is. Nil: it declares none.
    public var snapshot: String?

    public init(name: String, source: Source, systems: [String]? = nil, probes: [String: String] = [:], snapshot: String? = nil) {
        self.name = name
        self.source = source
        self.systems = systems
        self.probes = probes
        self.snapshot = snapshot
    }

    /// Whether a scenario of `system` talks to it: one of its systems, or any when it
    /// names none.
    package func serves(_ system: String) -> Bool {
        guard let systems else { return true }
        return systems.contains(system)
    }

    /// A server Chaos starts for each case: `{port}` and `{data}` in `arguments` and in
    /// the values of `environment` are its port and its folder.
    public static func command(_ name: String, executable: String, arguments: [String] = [], environment: [String: String] = [:],
                               systems: [String]? = nil, probes: [String: String] = [:], snapshot: String? = nil) -> Remote {
        Remote(name: name, source: .command(executable: executable, arguments: arguments, environment: environment),
               systems: systems, probes: probes, snapshot: snapshot)
    }

    /// A server that already listens at `host:port`.
    public static func address(_ name: String, host: String, port: Int, systems: [String]? = nil,
                               probes: [String: String] = [:], snapshot: String? = nil) -> Remote {
        Remote(name: name, source: .address(host: host, port: port), systems: systems, probes: probes, snapshot: snapshot)
    }

    /// A server that already listens at `host`, on the port the environment variable
    /// `variable` names (a CI job's setting: `CHAOS_EXAMPLE_PG_PORT=5432`). A target started
    /// without it stops at once, with exit code 64 and what to set, before Chaos reads
    /// anything else of it.
    public static func address(_ name: String, host: String, portFrom variable: String, systems: [String]? = nil,
                               probes: [String: String] = [:], snapshot: String? = nil) -> Remote {
        let value = ProcessInfo.processInfo.environment[variable]
        guard let value, let port = Int(value), (1...65_535).contains(port) else {
            FileHandle.standardError.write(Data("""
                set \(variable) to the port of the server '\(name)' listens on at \(host) (found \(value.map { "'\($0)'" } ?? "nothing"))

                """.utf8))
            exit(64)
        }
        return address(name, host: host, port: port, systems: systems, probes: probes, snapshot: snapshot)
    }

    /// The path of the executable `product` beside this one: a server of the same package
    /// (`swift build` puts a package's executables in one folder), for ``command(_:executable:arguments:environment:systems:probes:snapshot:)``.
    public static func product(_ product: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(product).path
    }

    /// The placeholders of a command's arguments and environment.
    public static let portPlaceholder = "{port}"
    public static let dataPlaceholder = "{data}"
}

/// Where the app reaches a remote: the fault proxy's address.
public struct RemoteAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `http://127.0.0.1:PORT` (or another scheme), for an HTTP client.
    public func url(scheme: String = "http") -> URL? {
        URL(string: "\(scheme)://\(host):\(port)")
    }

    public var description: String { "\(host):\(port)" }

    /// Reads `HOST:PORT` back.
    package init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65_535).contains(port)
        else { return nil }
        self.init(host: String(text[..<colon]), port: port)
    }
}
