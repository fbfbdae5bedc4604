import Foundation

/// The planted defects of `Benchmarks/Defects`: each a patch of one example's hardened
/// variant, its header saying what it plants and how it bites a user, its executable
/// built by `scripts/bench-defects.sh` into `.build-bench/defects/NAME/`.
struct PlantedDefect {
    var name: String
    var target: String
    var variant: String
    var family: String
    var plants: String
    var bites: String
    /// The executable the defect is in.
    var executable: String

    static let folder = "Benchmarks/Defects"
    static let builds = ".build-bench/defects"

    /// Every patch's defect whose executable was built, in the order of the file names;
    /// the names of those not built.
    static func all() -> (defects: [PlantedDefect], unbuilt: [String]) {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".patch") }.sorted()
        var defects: [PlantedDefect] = []
        var unbuilt: [String] = []
        for file in files {
            guard let text = try? String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8), let defect = parse(header: text, folder: String(file.dropLast(".patch".count))) else {
                unbuilt.append("\(file) (no header)")
                continue
            }
            guard FileManager.default.isExecutableFile(atPath: defect.executable) else {
                unbuilt.append(defect.name)
                continue
            }
            defects.append(defect)
        }
        return (defects, unbuilt)
    }

    /// The `# key: value` lines before the first `diff --git`; `folder`: the patch's file
    /// name without `.patch`, the folder its build goes to.
    static func parse(header text: String, folder: String) -> PlantedDefect? {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("diff --git") { break }
            guard line.hasPrefix("# "), let colon = line.firstIndex(of: ":") else { continue }
            let key = line[line.index(line.startIndex, offsetBy: 2)..<colon].trimmingCharacters(in: .whitespaces)
            fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard let name = fields["defect"], let target = fields["target"], let variant = fields["variant"] else { return nil }
        return PlantedDefect(name: name, target: target, variant: variant, family: fields["family"] ?? "?", plants: fields["plants"] ?? "",
                             bites: fields["bites"] ?? "", executable: "\(builds)/\(folder)/\(target)")
    }
}
