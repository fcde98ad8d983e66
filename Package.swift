// swift-tools-version: 6.2
// Swift 6.2 or later: the sources use nonisolated(nonsending) and Task.immediate. IdentityFlow
// depends on the Swift toolchain only (Foundation, Dispatch, Swift Testing): a product decision.
import PackageDescription

// Every Swift target builds with warnings as errors, so that `swift build --build-tests` (and
// `swift test` in .ci/run) stays at 0 warnings: a warning fails the build where it appears. For
// a host that depends on the package, SwiftPM ignores a dependency's warning settings.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "IdentityFlow",
    // iOS is what the Apple check (scripts/check-ios.sh) compiles; macOS shares its frameworks.
    // No tvOS (no web authentication session, no biometrics) and no watchOS (no biometrics, no
    // anchor to present a sign-in from): neither is compiled anywhere (README, "Platforms").
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "IdentityFlow", targets: ["IdentityFlow"]),
        .library(name: "IdentityFlowTesting", targets: ["IdentityFlowTesting"]),
        .executable(name: "identityflow", targets: ["identityflow"]),
    ],
    targets: [
        .target(name: "Statechart", swiftSettings: strict),
        // Tooling, not shipped in a product: the chart writers (SCXML, Mermaid, DOT), the SCXML
        // reader (FoundationXML), drift checks and the README block. The tool and the tests use it.
        .target(name: "StatechartExport", dependencies: ["Statechart"], swiftSettings: strict),
        .target(name: "CIdentityFlowCrypto"),
        // Certificate pinning on Linux: libcurl's public key pinning, in the libcurl that
        // FoundationNetworking loads (found with dlopen: nothing more is linked).
        .target(name: "CIdentityFlowPinnedTLS", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "IdentityFlow", dependencies: ["Statechart", "CIdentityFlowCrypto", "CIdentityFlowPinnedTLS"], swiftSettings: strict),
        .target(name: "IdentityFlowTesting", dependencies: ["IdentityFlow", "Statechart"], swiftSettings: strict),
        // IdentityFlow's chart files (StateCharts/, the README block), for the tool and the tests.
        .target(name: "IdentityFlowCharts", dependencies: ["IdentityFlow", "StatechartExport"], swiftSettings: strict),
        .executableTarget(
            name: "identityflow",
            dependencies: ["IdentityFlow", "IdentityFlowTesting", "IdentityFlowCharts", "Statechart", "StatechartExport", "CIdentityFlowCrypto"],
            swiftSettings: strict),
        // Writes into a FileStorage until killed: the crash-safety test's child process.
        .executableTarget(name: "identityflow-crash-writer", dependencies: ["IdentityFlow", "IdentityFlowTesting"], swiftSettings: strict),
        // Reads child processes' output in the tests that start them (crash writer, demo runs).
        .target(name: "ChildProcessSupport", dependencies: ["Statechart"], path: "Tests/ChildProcessSupport", swiftSettings: strict),
        .testTarget(name: "StatechartTests", dependencies: ["Statechart"], swiftSettings: strict),
        .testTarget(name: "StatechartExportTests", dependencies: ["StatechartExport", "Statechart"], swiftSettings: strict),
        .testTarget(
            name: "IdentityFlowTests",
            dependencies: ["IdentityFlow", "IdentityFlowTesting", "IdentityFlowCharts", "Statechart", "StatechartExport", "ChildProcessSupport"],
            swiftSettings: strict),
        .testTarget(name: "IdentityFlowTestingTests", dependencies: ["IdentityFlowTesting", "IdentityFlow"], swiftSettings: strict),
        .testTarget(name: "ExplorationTests", dependencies: ["IdentityFlow", "IdentityFlowTesting", "Statechart"], swiftSettings: strict),
        .testTarget(name: "InteropTests", dependencies: ["IdentityFlow", "IdentityFlowTesting", "Statechart", "ChildProcessSupport"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
