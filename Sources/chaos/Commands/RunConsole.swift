import Chaos
import Foundation

/// What `chaos run` prints: the seed first, a line per case, the evidence of every
/// case that did not pass with its reproduce command, a summary, where the reports are.
/// Colour only on a terminal and never with NO_COLOR set.
struct RunConsole {
    let colour: Bool = isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil

    func header(seed: UInt64?, scenarios: [Scenario], variant: String, target: String) {
        let seedText: String
        if let seed {
            seedText = "seed \(seed)"
        } else if scenarios.count == 1, let only = scenarios.first {
            seedText = "seed \(only.seed) (the scenario's own; --seed to change)"
        } else {
            seedText = "seed: each scenario's own (--seed N to use one for all)"
        }
        print("chaos \(ChaosVersion.current) — \(seedText)")
        print("variant \(variant), target \(target), \(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s")")
        print("")
        fflush(nil)
    }

    func event(_ event: SuiteRunner.CaseEvent) {
        guard case let .finished(report, scratch) = event else { return }
        let mark: String
        switch report.verdict {
        case .passed: mark = paint("✔", 32)
        case .deviated: mark = paint("✘", 31)
        case .errored: mark = paint("!", 33)
        case .skipped: mark = paint("-", 90)
        case .interrupted: mark = paint("⏹", 33)
        }
        var line = "\(mark) \(report.scenario.padding(28)) \(report.verdict.rawValue.padding(11)) \(String(report.durationMs).leftPadded(6)) ms"
        if let recovery = report.recoveryMs { line += "   recovered in \(recovery) ms" }
        if let trap = report.trap { line += "   trap \(trap.signalName)" + (trap.site.map { " at \($0)" } ?? "") }
        print(line)
        if report.verdict != .passed {
            for failed in report.expectations where !failed.passed {
                print("    \(paint("✘", 31)) \(failed.label): expected \(failed.expected), saw \(failed.observed)")
                if let detail = failed.detail { print("      \(detail)") }
            }
            if let error = report.error { print("    \(error)") }
            print("    reproduce: \(report.reproduce)")
        }
        if let scratch { print("    kept: \(scratch.path)") }
        fflush(nil)
    }

    func footer(_ report: RunReport, html: String?, json: String?, junit: String?) {
        let summary = report.summary
        var parts = ["\(summary.passed) passed", "\(summary.deviated) deviated", "\(summary.errored) errored"]
        if summary.skipped > 0 { parts.append("\(summary.skipped) skipped") }
        if summary.interrupted > 0 { parts.append("\(summary.interrupted) interrupted") }
        print("")
        print("\(parts.joined(separator: ", ")) in \(String(format: "%.1f", Double(summary.durationMs) / 1000)) s")
        if let html, let json, let junit {
            print("report: \(html)")
            print("        \(json), \(junit)")
        }
        fflush(nil)
    }

    private func paint(_ text: String, _ code: Int) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
