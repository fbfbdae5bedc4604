import Foundation
import Synchronization

/// Which modules of a SwiftPM-built executable are its dependencies' (`.build/checkouts/
/// PACKAGE/Sources/MODULE`, or a checkout's top folder, as GRDB keeps its module): how a
/// trap with no frames to read is kept from naming a dependency's file as its site. A
/// runtime message line says `Module/File.swift:LINE` and nothing of where the module
/// came from; a backtrace says it, but a worker ended mid-backtrace (a second thread's
/// trap) leaves none.
enum DependencyModules {
    private static let cache = Mutex<[String: Set<String>]>([:])

    /// Whether `module` is one of the dependencies checked out beside `executable`'s
    /// build: nil when no `checkouts` folder is found above it (not a SwiftPM build).
    static func isDependency(_ module: String, of executable: String) -> Bool? {
        guard let checkouts = checkouts(above: executable) else { return nil }
        if let known = cache.withLock({ $0[checkouts] }) { return known.contains(module) }
        let modules = read(checkouts)
        cache.withLock { $0[checkouts] = modules }
        return modules.contains(module)
    }

    /// `…/.build/checkouts` for `…/.build/<triple>/debug/app` (or `…/.build/debug/app`).
    static func checkouts(above executable: String) -> String? {
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("checkouts")
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), isFolder.boolValue {
                return candidate.path
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    private static func read(_ checkouts: String) -> Set<String> {
        let files = FileManager.default
        var modules: Set<String> = []
        for package in (try? files.contentsOfDirectory(atPath: checkouts)) ?? [] {
            let root = URL(fileURLWithPath: checkouts).appendingPathComponent(package)
            modules.formUnion((try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? [])
            modules.formUnion(((try? files.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") })
        }
        return modules
    }
}
