import Foundation

/// What a storage stack implements to run under Chaos: a user's own app, in a small
/// executable that links `ChaosTarget`, as the built-in reference app does.
///
/// ```swift
/// import ChaosTarget
///
/// @main
/// final class NotesTarget: ChaosTarget {
///     static let files = ["store": "notes.sqlite"]
///     static let variants = ["fixed", "fragile"]
///     static let workload: Workload? = Workload(write: "notes.add", read: "notes.list")
///     static let actions: [TargetAction<NotesTarget>] = [
///         TargetAction("notes.add") { target, call in
///             call.acknowledge("note:\(try target.repository.add(text: "a note").id)")
///             return .done()
///         },
///         TargetAction("notes.list") { target, _ in .read(.int(try target.repository.all().count)) },
///     ]
///     init(context: TargetContext) { ... }
///     func launch() async -> Health { ... }
///     func snapshot() async throws -> [String: [String: String]] { .records("note", try repository.all()) }
///     func stop() async { ... }
/// }
/// ```
///
/// `health` and `surfaced` come by default from what `launch()` reported and what the
/// last action returned (``launchHealth``, ``lastFailure``); an action that throws the
/// app's own error failed, and a `LocalizedError`'s description is what the user read.
///
/// One instance serves one launch of the app in one worker process. Chaos starts a new
/// process for every launch, on the same data directory, so a target keeps nothing in
/// memory that a real app would not lose on a restart. Every SQLite connection the
/// process opens goes through Chaos's fault VFS: storage faults need nothing more.
@MainActor
public protocol ChaosTarget: AnyObject, Sendable {
    /// Logical file names → paths relative to the data directory. `store` is the
    /// database the storage catalog damages; its `-wal`, `-shm` and `-journal` are
    /// found beside it unless named here.
    static var files: [String: String] { get }
    /// Logical names (keys of ``files``) of the files a locked device still serves: what an
    /// iOS app creates with `FileProtectionType.none` (a widget's shared cache, a log).
    /// `device-locked` spares them and fails every other file of the app. Default: none.
    static var unprotectedFiles: [String] { get }
    /// Logical names (keys of ``files``) of the files in a shared container, which the
    /// app's extensions and widgets open too (an iOS app group): the system kills an app
    /// suspended while it holds a lock on one of them (0xdead10cc). `suspend` steps judge
    /// the locks on these files; the storage catalog's suspension cases run only for a
    /// target that declares some. Default: none.
    static var sharedContainer: [String] { get }
    /// The contract `chaos check` runs its storage catalog on: a write action that
    /// acknowledges record keys and a read action. Nil: the target has no catalog.
    static var workload: Workload? { get }
    /// Every action a scenario can `do:`, each with its body.
    static var actions: [TargetAction<Self>] { get }
    /// Probes a scenario can ask (`state:`), beyond `health` and `surfaced`.
    static var probes: [TargetProbe<Self>] { get }
    /// The storage modes its health may report (what `fallback:` may name).
    static var modes: [Health.Mode] { get }
    /// The variants `--variant` may name (`fragile`, `fixed`), the first the default.
    /// Empty: the target takes any name. `chaos reproduce --from-crash` tries each.
    static var variants: [String] { get }
    /// The copies of SQLite its storage runs on, for the fault VFS to be installed into:
    /// the system's by default; a stack on its own copy (sqlite-nio) names it; a stack
    /// on plain files names none, and its storage faults go through the libc seam.
    static var sqlite: [SQLiteLibrary] { get }
    /// The options it reads from ``TargetContext/options``, and their values: any other
    /// option a scenario or `--option` names is refused before anything runs.
    static var options: [TargetOption] { get }
    /// The remotes its app talks to (its server, a database server): Chaos puts its
    /// fault proxy in front of each and gives the app the proxy's address
    /// (``TargetContext/remotes``).
    static var remotes: [Remote] { get }
    /// The systems (features) its scenarios may name in `system:`; empty: any kebab-case
    /// name.
    static var systems: [String] { get }
    /// Keys of records the app makes by itself, not for any action (a default row, a
    /// sample made at first use); a key ending in `*` covers every key it begins. Never
    /// counted as unexpected. Records a clean first launch makes need no declaring:
    /// Chaos learns those from one launch on an empty folder.
    static var ownRecords: [String] { get }
    /// Whether Chaos bootstraps swift-log in the worker to read the app's log records
    /// (``TargetLogging``): `.own` for an app whose start-up bootstraps it itself.
    static var logging: TargetLogging { get }
    /// A folder of scenario files that ship with the target (one scenario a file, its
    /// `name:` the file's base name): `chaos run NAME`, `chaos list` and `chaos run --all`
    /// find them here, and a `fixtures/FILE` they put in place is in the `fixtures`
    /// folder beside it. Nil (the default): the target ships none; scenarios are named
    /// by their files.
    static var scenarioFolder: URL? { get }
    /// Work done once in a sweep's fork server, before it forks a worker for each launch,
    /// so that no forked worker pays for it (a storage library's first statements, the
    /// runtime's first look-ups of its types). It must leave the process with one thread:
    /// a server with more forks none, and its launches start as usual. Default: nothing.
    @MainActor static func warmUpBeforeForking()

    init(context: TargetContext)

    /// Starts the app: opens its store, recovers as it would for a user. Must not trap
    /// on any data directory; says what it found.
    func launch() async -> Health
    /// The app's storage health now. Default: what `launch()` reported.
    var health: Health { get }
    /// What the app shows the user now: a warning, an error, or nothing. Default: the
    /// last action's failure, else what `health` says.
    var surfaced: Surfaced { get }
    /// Every record of user data: table → record key → canonical row text. The keys
    /// are those the write actions acknowledge. `.records("note", notes)` makes a table.
    func snapshot() async throws -> [String: [String: String]]
    /// What the app tells the user is kept elsewhere: a remote's name → the keys of the
    /// records it shows as synced or uploaded there (all of them when it shows "all
    /// synced"). `claims-hold` checks each against the remote's ``Remote/snapshot``.
    /// Default: it claims nothing.
    var claims: [String: [String]] { get }
    /// Graceful stop: close the store. Default: nothing to close (an app whose every
    /// write is finished when its action answers).
    func stop() async
    /// A target's own fault effect at a fault point (`reset-context`), on whatever
    /// thread hit the point: it must be thread-safe.
    nonisolated func applyEffect(_ effect: String, at point: String)
    /// The app goes to the background and is about to be suspended (a `suspend` step):
    /// end or abandon every transaction on the shared container's files and take no
    /// lock on them until ``didResume()`` (GRDB: post `Database.suspendNotification`
    /// with `observesSuspensionNotifications` set). Called on a thread of its own, maybe
    /// while the app is in the middle of a save: it must be thread-safe and must not wait
    /// for the main actor. Default: nothing.
    nonisolated func willSuspend()
    /// The app is back in the foreground after a suspension (GRDB:
    /// `Database.resumeNotification`). Same rules as ``willSuspend()``. Default: nothing.
    nonisolated func didResume()
}

extension ChaosTarget {
    public static var workload: Workload? { nil }
    public static var unprotectedFiles: [String] { [] }
    public static var sharedContainer: [String] { [] }
    public static var probes: [TargetProbe<Self>] { [] }
    public static var modes: [Health.Mode] { Health.Mode.standard }
    public static var variants: [String] { [] }
    public static var sqlite: [SQLiteLibrary] { [.system] }
    public static var options: [TargetOption] { [] }
    public static var remotes: [Remote] { [] }
    public func stop() async {}
    public var claims: [String: [String]] { [:] }
    public static var systems: [String] { [] }
    public static var ownRecords: [String] { [] }
    public static var logging: TargetLogging { .captured }
    public static var scenarioFolder: URL? { nil }
    @MainActor public static func warmUpBeforeForking() {}
    public nonisolated func applyEffect(_ effect: String, at point: String) {}
    public nonisolated func willSuspend() {}
    public nonisolated func didResume() {}

    /// The entry point of a target executable (`@main`): serves Chaos on stdin and
    /// stdout until it says stop, then exits.
    public static func main() async {
        exit(await serve(arguments: Array(CommandLine.arguments.dropFirst())))
    }

    /// Serves one worker: reads the arguments Chaos starts it with (`--data DIR
    /// --variant V --seed N [--option KEY=VALUE ...]`), answers requests until stop.
    /// Returns the exit code.
    public static func serve(arguments: [String]) async -> Int32 {
        var arguments = arguments
        if arguments.first == WorkerForkServer.flag {
            // A fork server: the server itself ends here; each forked worker goes on.
            guard let forked = WorkerForkServer.serve(Self.self) else { return 0 }
            arguments = forked
        }
        KnownTrapSites.installIfAsked()
        do {
            var context = try TargetContext(workerArguments: arguments)
            for remote in remotes where context.remotes[remote.name] != nil {
                if case let .address(host, port) = remote.source { context.servers[remote.name] = RemoteAddress(host: host, port: port) }
            }
            return await WorkerHost.run(Self.self, context: context)
        } catch {
            FileHandle.standardError.write(Data("chaos target: \(error)\n".utf8))
            return 64
        }
    }
}
