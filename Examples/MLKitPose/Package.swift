// swift-tools-version:6.0
import PackageDescription

// An app's package, depending on PureVision the way an app adds it (here by path, from the repository's Examples/).
// Run from the repository root: Examples/run-all.sh.
let package = Package(
    name: "MLKitPose",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "PureVision", path: "../..")],
    targets: [
        .executableTarget(name: "MLKitPose", dependencies: [.product(name: "PureVisionMLKit", package: "PureVision")])
    ]
)
