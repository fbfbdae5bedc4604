import ChaosTarget

/// The reference app, as the `chaos` executable hosts it: its worker (`chaos worker`),
/// its remote (`chaos registry`) and its declaration (read in the CLI's own process,
/// where it is compiled in). Everything else of it stays inside this module: the
/// framework reaches it only through ChaosTarget, as any user's target.
package enum ReferenceApp {
    /// Serves one worker of the reference app: the same public entry as a user's target.
    package static func serveWorker(arguments: [String]) async -> Int32 {
        await SystemUnderTestTarget.serve(arguments: arguments)
    }

    /// What the reference app declares.
    @MainActor
    package static var declaration: TargetDeclaration {
        TargetDeclaration(target: SystemUnderTestTarget.self, pid: 0)
    }
}
