import Foundation
import PackagePlugin

/// `swift package chaos COMMAND [--target NAME] [ARGUMENTS...]`: the `chaos` tool inside
/// the user's own package, as swift-format and DocC run there. It builds the user's
/// target executable and `chaos` (from the Chaos checkout SwiftPM already has, in the
/// same debug build, sharing its modules: not as a plugin's tool, which every `swift
/// build` of the package would build a second time), then
/// runs `chaos COMMAND --target-exec BUILT-TARGET ARGUMENTS...`: no clone, no path.
///
/// - `--target NAME` names the executable that links `ChaosTarget`; without it, the
///   package's only executable target that does is taken.
/// - The reports go to the plugin's own work folder under `.build`
///   (`.build/plugins/ChaosPlugin/outputs`) unless `--report-dir` says elsewhere; chaos
///   prints where.
/// - chaos's exit code ends the plugin: SwiftPM prints it ("Plugin ended with exit code
///   64") and exits 1 for any but 0.
///
/// It asks for no permission (docs/TARGETS.md, "swift package chaos"): the one folder it
/// writes by default is the work folder SwiftPM gives every plugin, and what chaos does
/// besides — start the target's processes, listen on 127.0.0.1 for its fault proxy,
/// write `--report-dir` — SwiftPM leaves unchecked on Linux, where it runs plugins
/// without a sandbox and where chaos runs.
@main
struct ChaosPlugin: CommandPlugin {
    /// The commands that start the app, and so need the target built; each writes reports.
    static let startTheApp: Set<String> = ["run", "check", "explore", "hunt", "reproduce"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let named = extractor.extractOption(named: "target")
        var rest = extractor.remainingArguments
        // `swift package chaos -- check ...` passes the separator through.
        if rest.first == "--" { rest.removeFirst() }
        let command = rest.first { !$0.hasPrefix("-") }
        var chaosArguments = rest
        if let command, Self.startTheApp.contains(command), !rest.contains("--target-exec") {
            let target = try Self.target(named: named, in: context.package)
            chaosArguments += ["--target-exec", try build(target)]
        } else if !named.isEmpty {
            throw PluginProblem("--target names the app for \(Self.startTheApp.sorted().joined(separator: ", ")); "
                + "'\(command ?? "no command")' starts no app")
        }
        if let command, Self.startTheApp.contains(command), !rest.contains(where: { $0 == "--report-dir" || $0.hasPrefix("--report-dir=") }) {
            chaosArguments += ["--report-dir", context.pluginWorkDirectoryURL.path]
        }
        let chaos = try build("chaos")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chaos)
        process.arguments = chaosArguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        // The gate reads chaos's own exit code, not "the plugin failed".
        exit(process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus)
    }

    /// The executable target `name`, or the only one that links ChaosTarget.
    static func target(named names: [String], in package: Package) throws -> String {
        if let name = names.last {
            guard package.targets.contains(where: { $0.name == name }) else {
                throw PluginProblem("no target '\(name)' in \(package.displayName); its executables: \(executables(of: package).joined(separator: ", "))")
            }
            return name
        }
        let targets = package.targets.filter { target in
            guard let module = target as? SourceModuleTarget, module.kind == .executable else { return false }
            return module.dependencies.contains { dependency in
                if case let .product(product) = dependency { return product.name == "ChaosTarget" }
                return false
            }
        }
        guard targets.count == 1, let only = targets.first else {
            throw PluginProblem(targets.isEmpty
                ? "no executable target of \(package.displayName) links ChaosTarget: add one (docs/TARGETS.md), or name it with --target NAME"
                : "several executables link ChaosTarget (\(targets.map(\.name).joined(separator: ", "))): name one with --target NAME")
        }
        return only.name
    }

    static func executables(of package: Package) -> [String] {
        package.targets.compactMap { ($0 as? SourceModuleTarget)?.kind == .executable ? $0.name : nil }
    }

    /// Builds the executable `name` (debug, as `swift build` does) and returns its path.
    func build(_ name: String) throws -> String {
        let result = try packageManager.build(.product(name), parameters: .init(configuration: .debug, logging: .concise, echoLogs: true))
        guard result.succeeded else { throw PluginProblem("the target '\(name)' did not build") }
        guard let executable = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == name })
            ?? result.builtArtifacts.first(where: { $0.kind == .executable }) else {
            throw PluginProblem("building '\(name)' made no executable: is it an executableTarget?")
        }
        return executable.url.path
    }
}

/// What stops the plugin before `chaos` runs, in words.
struct PluginProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
