import Chaos
import Foundation
import Testing

/// The arguments Chaos starts a worker with, read back by the worker.
@Suite struct TargetContextTests {
    @Test func readsWhatTheControllerPasses() throws {
        let context = try TargetContext(workerArguments: [
            "--data", "/tmp/case/data", "--variant", "legacy", "--seed", "6745",
            "--option", "synchronous=off", "--option", "remote-url=http://127.0.0.1:4000/a=b",
        ])
        #expect(context.dataDirectory.path == "/tmp/case/data")
        #expect(context.variant == "legacy")
        #expect(context.seed == 6745)
        #expect(context.options == ["synchronous": "off", "remote-url": "http://127.0.0.1:4000/a=b"])
    }

    /// No variant asked for: the target picks its own default (its first).
    @Test func defaultsAreNoVariantAndSeedOne() throws {
        let context = try TargetContext(workerArguments: ["--data", "/d"])
        #expect(context.variant == "")
        #expect(context.seed == 1)
        #expect(context.options.isEmpty)
    }

    @Test(arguments: [
        ([], "--data DIR is required"),
        (["--data"], "--data needs a value"),
        (["--data", "/d", "--seed", "many"], "--seed wants a whole number, got 'many'"),
        (["--data", "/d", "--option", "novalue"], "--option wants KEY=VALUE, got 'novalue'"),
        (["--data", "/d", "--verbose"], "unknown worker argument '--verbose'"),
    ])
    func badArgumentsAreNamed(arguments: [String], problem: String) {
        do {
            _ = try TargetContext(workerArguments: arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(error.description.hasPrefix(problem), "\(error)")
        }
    }
}
