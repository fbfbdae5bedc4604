// swift-tools-version:6.1
// Chaos: fault injection and chaos testing for the storage stack of a Swift app.
// Layout and the reasons for it: docs/ARCHITECTURE.md and ../shared/DESIGN.md.
import PackageDescription

let package = Package(
    name: "Chaos",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FaultPoints", targets: ["FaultPoints"]),
        // What a user's own target executable links: the target protocol and its host,
        // the fault VFS, FaultPoints. No SwiftNIO, no Yams, no bundled scenarios.
        .library(name: "ChaosTarget", targets: ["ChaosTarget"]),
        // What a user's test target links: scenarios and the storage catalog as tests
        // (Swift Testing, an XCTest entry too), scoped fault points for unit tests.
        .library(name: "ChaosTesting", targets: ["ChaosTesting"]),
        // Clock faults: preloaded into workers before libfaketime (docs/ARCHITECTURE.md).
        // Storage faults and power loss for any file: preloaded into workers (docs/ARCHITECTURE.md).
        .executable(name: "chaos", targets: ["chaos"]),
        // `swift package chaos check --target NAME`: chaos inside the user's own package
        // (docs/TARGETS.md, "swift package chaos").
        .plugin(name: "ChaosPlugin", targets: ["ChaosPlugin"]),
    ],
    traits: [
        .trait(name: "FaultPointsEnabled", description: "Fault points are live. Without it every hit() compiles to nothing."),
        .default(enabledTraits: ["FaultPointsEnabled"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        // The app's logs as evidence: the worker host bootstraps swift-log (TargetLogging).
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // The ledger example's store: sqlite-nio, with its own renamed copy of SQLite.
        .package(url: "https://github.com/vapor/sqlite-nio", exact: "1.13.2"),
        // The sync example's server: an app's own backend, a real HTTP server. Its default
        // traits (swift-configuration, full Foundation) are not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        // The orders example's store: a PostgreSQL server, reached through postgres-nio.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        // What app code links to mark fault points. No dependencies.
        .target(
            name: "FaultPoints",
            swiftSettings: [.define("FAULT_POINTS_ENABLED", .when(traits: ["FaultPointsEnabled"]))]
        ),
        // libsqlite3 from the system, for the controller's own checks.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // What a power cut leaves of unsynced changes: shared by the two crash simulators.
        .target(name: "CPowerCut"),
        // What each seam saw the app do: the distinct calls and their results.
        .target(name: "CSeamCalls"),
        // The fault VFS: mechanism in C, policy in Swift.
        .target(name: "CChaosVFS", dependencies: ["CSQLite", "CPowerCut", "CSeamCalls"]),
        // The libc seam: interposers for any file, a preload, never linked (the
        // controller builds it with the C compiler: PreloadLibrary.swift); and the
        // table through which a worker finds and drives it.
        .target(name: "CLibcSeamAPI"),
        .target(name: "CLibcSeam", dependencies: ["CLibcSeamAPI", "CPowerCut", "CSeamCalls"]),
        // The workers' fork server: a started worker forks the next ones (mechanism in C).
        .target(name: "CForkServer"),
        // The controller's hold on what its workers start: pidfd waits, a child subreaper.
        .target(name: "CProcessControl"),
        // Timers stay real under libfaketime: a preload, never linked (built likewise).
        .target(name: "CTimerfdShim"),
        .target(
            name: "SystemUnderTest",
            dependencies: ["FaultPoints", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log")]
        ),
        // Sources/Scenarios holds two modules of resources, one Swift file each that finds
        // them. The storage catalog of `chaos check`, for any target (and the one fixture it
        // puts in place of a store): the one the framework may read.
        .target(name: "StorageCatalog", path: "Sources/Scenarios",
                exclude: ["catalog", "seeds.yaml", "ReferenceScenarios.swift", "fixtures"],
                sources: ["StorageCatalog.swift"], resources: [.copy("check")]),
        // The reference app's own scenarios, their fixtures and the seed map: its target's.
        .target(name: "ReferenceScenarios", dependencies: ["StorageCatalog"], path: "Sources/Scenarios", exclude: ["check", "StorageCatalog.swift"],
                sources: ["ReferenceScenarios.swift"], resources: [.copy("catalog"), .copy("fixtures"), .copy("seeds.yaml")]),
        // The worker side: the target protocol, its host, the in-process faults and their
        // seams (the fault VFS, fault points). Everything a target needs, nothing more.
        // A trap at an instruction the controller has named ended without a backtracer.
        .target(name: "CTrapSites"),
        .target(name: "ChaosTarget", dependencies: ["FaultPoints", "CChaosVFS", "CForkServer", "CLibcSeamAPI", "CTrapSites",
                                                    .product(name: "Logging", package: "swift-log")]),
        // The controller: scenarios, the runner, the network lab, the reports.
        .target(
            name: "Chaos",
            dependencies: [
                "ChaosTarget", "FaultPoints", "CChaosVFS", "CSQLite", "CForkServer", "CProcessControl", "StorageCatalog",
                .product(name: "Yams", package: "Yams"),
                // The network lab: a TCP fault proxy in front of each of the target's remotes.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // The reference app as a target like any other: its five systems' drivers, the
        // family registry (its declared remote), its scenarios and seed map. It reaches the
        // framework only through ChaosTarget; the `chaos` executable hosts it (`chaos worker`,
        // `chaos registry`).
        .target(
            name: "ReferenceTarget",
            dependencies: [
                "ChaosTarget", "SystemUnderTest", "ReferenceScenarios", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // Chaos inside `swift test`: the controller in the test process, the app in children.
        .target(name: "ChaosTesting", dependencies: ["Chaos", "ChaosTarget", "FaultPoints"]),
        .executableTarget(
            name: "chaos",
            dependencies: [
                "Chaos", "ReferenceTarget",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `swift package chaos COMMAND [--target NAME] ...`: builds the user's target and
        // `chaos`, and runs the one on the other. It writes its reports into the package's
        // .build (or --report-dir), and chaos starts the target's processes.
        .plugin(
            name: "ChaosPlugin",
            capability: .command(
                intent: .custom(verb: "chaos", description: "Run chaos (check, run, hunt, reproduce, explore) on a target of this package")
            )
            // No `dependencies: ["chaos"]`: a plugin's tool is built a second time, with all
            // of Chaos's dependencies, in every `swift build` of a package that has it (ours
            // and each user's). The plugin builds `chaos` when it runs, beside the target.
        ),
        // A user's own stack under Chaos: a small notes app with a fragile repository
        // and a fixed one (Examples/Notes, docs/TARGETS.md).
        .target(
            name: "NotesCore",
            dependencies: ["FaultPoints", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Examples/Notes/Sources/NotesCore"
        ),
        .executableTarget(name: "chaos-example-notes", dependencies: ["NotesCore", "ChaosTarget"], path: "Examples/Notes/Sources/NotesTarget"),
        // The example's own tests, as a user writes them: its scenarios as Swift Testing
        // tests, and a unit test with a scoped fault (docs/TESTING.md).
        .testTarget(name: "NotesTests", dependencies: ["NotesCore", "ChaosTesting"], path: "Examples/Notes/Tests"),
        // A second style: a DatabasePool app with a migrator, started as Xcode's templates
        // start it (Examples/Journal).
        .executableTarget(
            name: "chaos-example-journal",
            dependencies: ["ChaosTarget", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Examples/Journal/Sources"
        ),
        // A third style: a store on sqlite-nio (its own copy of SQLite, renamed), as Vapor
        // and Hummingbird apps keep their data (Examples/Ledger).
        .target(name: "LedgerCore", dependencies: [.product(name: "SQLiteNIO", package: "sqlite-nio"), .product(name: "Logging", package: "swift-log")],
                path: "Examples/Ledger/Sources/LedgerCore"),
        .executableTarget(
            name: "chaos-example-ledger",
            dependencies: ["LedgerCore", "ChaosTarget", .product(name: "SQLiteNIO", package: "sqlite-nio")],
            path: "Examples/Ledger/Sources/LedgerTarget"
        ),
        // A fourth style: no SQLite at all, a Codable list in one JSON file (Examples/Todos):
        // storage faults and power cuts reach it through the libc seam.
        .target(name: "TodosCore", path: "Examples/Todos/Sources/TodosCore"),
        .executableTarget(name: "chaos-example-todos", dependencies: ["TodosCore", "ChaosTarget"], path: "Examples/Todos/Sources/TodosTarget"),
        // A fifth style: a notebook saved on the device and synced to the app's own server
        // (Hummingbird), the target's declared remote (Examples/Sync).
        .target(name: "SyncCore", dependencies: ["NotesCore", .product(name: "NIOCore", package: "swift-nio"),
                                                 .product(name: "NIOPosix", package: "swift-nio"),
                                                 .product(name: "NIOHTTP1", package: "swift-nio")],
                path: "Examples/Sync/Sources/SyncCore"),
        .executableTarget(name: "chaos-example-sync", dependencies: ["SyncCore", "NotesCore", "ChaosTarget"],
                          path: "Examples/Sync/Sources/SyncTarget"),
        .executableTarget(name: "chaos-example-sync-server", dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
                          path: "Examples/Sync/Sources/SyncServer"),
        // A sixth style: the data on a database server, PostgreSQL through postgres-nio, the
        // target's declared remote (Examples/Orders): network faults between app and server.
        .target(name: "OrdersCore", dependencies: [.product(name: "PostgresNIO", package: "postgres-nio")],
                path: "Examples/Orders/Sources/OrdersCore"),
        .executableTarget(name: "chaos-example-orders", dependencies: ["OrdersCore", "ChaosTarget"],
                          path: "Examples/Orders/Sources/OrdersTarget"),
        // A seventh style: an upload server's folder of files, written through swift-nio's
        // _NIOFileSystem (O_TMPFILE + linkat), judged by content (Examples/Uploads).
        .target(name: "UploadsCore", dependencies: [.product(name: "_NIOFileSystem", package: "swift-nio")],
                path: "Examples/Uploads/Sources/UploadsCore"),
        .executableTarget(name: "chaos-example-uploads", dependencies: ["UploadsCore", "ChaosTarget"],
                          path: "Examples/Uploads/Sources/UploadsTarget"),
        // A test app that never checkpoints its WAL (raw SQLite C API): what a file fault
        // that lands where SQLite does not read is tested on.
        .executableTarget(
            name: "chaos-test-never-checkpoints",
            dependencies: ["ChaosTarget", "CSQLite"],
            path: "Tests/TargetApps/NeverCheckpoints"
        ),
        // A test app for the libc seam alone: a script of file operations, run with the
        // seam preloaded, so its faults and its power cut are tested on real files.
        .executableTarget(name: "chaos-test-file-ops", dependencies: ["CLibcSeamAPI"], path: "Tests/TargetApps/FileOps"),
        // A test app that traps on an index out of range: built in release, statically
        // linked, by the test that names such a trap's site in every build.
        .executableTarget(name: "chaos-test-index-trap", dependencies: ["ChaosTarget"], path: "Tests/TargetApps/IndexTrap"),
        // A test app with a crash no catalog case reaches (a tag renamed to nothing): what
        // `chaos reproduce --from-crash` finds by a hunt aimed at the crash.
        .executableTarget(name: "chaos-test-tags", dependencies: ["ChaosTarget"], path: "Tests/TargetApps/Tags"),
        // A test app that tells a full disk from damage by the free space statvfs shows:
        // what `disk-full`'s `reported-free` is tested on (`--variant wipes` starts over).
        .executableTarget(name: "chaos-test-space-check", dependencies: ["ChaosTarget"], path: "Tests/TargetApps/SpaceCheck"),
        // A test app whose import holds what it reads in memory: what `memory-kill` is
        // tested on (`--variant acknowledges-first` loses what it told the user).
        .executableTarget(name: "chaos-test-memory-hog", dependencies: ["ChaosTarget"], path: "Tests/TargetApps/MemoryHog"),
        // `make bench`: figures, not tests (release build).
        .executableTarget(
            name: "chaos-bench",
            dependencies: ["Chaos", "ChaosTarget", "CSQLite", "CChaosVFS", "CLibcSeamAPI"],
            path: "Benchmarks/ChaosBench"
        ),
        // The fault-point loops alone, so `make bench` can build them without the trait too.
        .executableTarget(name: "chaos-bench-points", dependencies: ["FaultPoints"], path: "Benchmarks/FaultPointBench"),
        .testTarget(name: "FaultPointsTests", dependencies: ["FaultPoints"]),
        .testTarget(
            name: "SystemUnderTestTests",
            dependencies: ["SystemUnderTest", "FaultPoints", "Chaos", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "ChaosTestingTests", dependencies: ["ChaosTesting"]),
        .testTarget(name: "ChaosTests", dependencies: ["Chaos", "ChaosTarget", "FaultPoints", "CChaosVFS", "CPowerCut", "ReferenceTarget", "ReferenceScenarios", "SystemUnderTest"],
                    exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
