// swift-tools-version:6.0
import PackageDescription

// PureVision: MediaPipe's vision models, read from their own .tflite / .task files and run natively in Swift.
//
// Every module carries the project's prefix, so none can collide with an Apple framework (ImageIO, Vision …) or
// another package's module in the same app. Dependency arrows (imports):
//   PureVisionKernels -> PureVisionCore, CPureVisionOpenBLAS (Linux) / Accelerate (Apple)
//   PureVisionTFLite  -> PureVisionCore        (the reader stays pure: it never sees kernels)
//   PureVisionEngine  -> PureVisionKernels, PureVisionTFLite
//   PureVisionImage   -> PureVisionCore, CPureVisionPNG / CPureVisionJPEG (Linux) / Apple's ImageIO (Apple)
//   PureVision (the vision tasks; the umbrella an app imports) -> PureVisionEngine, PureVisionImage
//   purevision (CLI), bench -> PureVision
//   PureVisionTestSupport -> PureVisionCore

/// The C libraries exist as Debian packages on Linux only; Apple platforms use the SDK (Accelerate, ImageIO).
let linuxOnly = TargetDependencyCondition.when(platforms: [.linux])
/// The platforms the package declares below, where Accelerate is part of the SDK.
let appleOnly = TargetDependencyCondition.when(platforms: [.macOS, .iOS, .tvOS, .visionOS])

let package = Package(
    name: "PureVision",
    // The thread pool's atomics (the Synchronization module's `Atomic`) set the floor: macOS 15, iOS 18 and the
    // releases of the same year for tvOS and visionOS. watchOS is not declared (see README, "Platforms").
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "PureVision", targets: ["PureVision"]),
        .library(name: "PureVisionEngine", targets: ["PureVisionEngine"]),
        .library(name: "PureVisionTFLite", targets: ["PureVisionTFLite"]),
        .library(name: "PureVisionImage", targets: ["PureVisionImage"]),
        // Source compatibility: MediaPipe Tasks iOS (MediaPipeTasksVision) and ML Kit / Firebase ML face detection.
        .library(name: "PureVisionMediaPipe", targets: ["PureVisionMediaPipe"]),
        .library(name: "PureVisionMLKit", targets: ["PureVisionMLKit"]),
        .executable(name: "purevision", targets: ["PureVisionCLI"]),
        .executable(name: "bench", targets: ["PureVisionBench"]),
    ],
    targets: [
        // MARK: System libraries (Linux only; Debian: libopenblas-dev, libpng-dev, libjpeg-dev)
        .systemLibrary(name: "CPureVisionOpenBLAS", path: "Sources/CPureVisionOpenBLAS"),
        .systemLibrary(name: "CPureVisionPNG", path: "Sources/CPureVisionPNG"),
        .systemLibrary(name: "CPureVisionJPEG", path: "Sources/CPureVisionJPEG"),
        // libjpeg reports errors by longjmp; this small C target is the only place that catches them. On Apple
        // platforms it compiles to nothing (its source is guarded) and links nothing.
        .target(
            name: "CPureVisionJPEGSupport",
            dependencies: [.target(name: "CPureVisionJPEG", condition: linuxOnly)],
            linkerSettings: [.linkedLibrary("jpeg", .when(platforms: [.linux]))]
        ),

        // MARK: Public API
        .target(name: "PureVisionCore"),
        .target(
            name: "PureVisionKernels",
            dependencies: [
                "PureVisionCore",
                "CPureVisionTargetFeatures",
                .target(name: "CPureVisionOpenBLAS", condition: linuxOnly),
                .target(name: "CPureVisionAccelerate", condition: appleOnly),
            ]
        ),
        // The instruction-set level the Swift kernels are compiled for (FMA, vector width, arm64), read from Clang's
        // predefined macros: Swift has no compile-time test for CPU features. A header and an empty source.
        .target(name: "CPureVisionTargetFeatures"),
        // Accelerate's current BLAS interface needs the macro ACCELERATE_NEW_LAPACK, which a package can define for
        // a C target but not for a Swift one (only through unsafe flags, refused in a dependency): the two BLAS calls
        // are made from here. On Linux it compiles to nothing (its source is guarded).
        .target(
            name: "CPureVisionAccelerate",
            cSettings: [.define("ACCELERATE_NEW_LAPACK", .when(platforms: [.macOS, .iOS, .tvOS, .visionOS]))],
            linkerSettings: [.linkedFramework("Accelerate", .when(platforms: [.macOS, .iOS, .tvOS, .visionOS]))]
        ),
        .target(name: "PureVisionTFLite", dependencies: ["PureVisionCore"]),
        .target(name: "PureVisionEngine", dependencies: ["PureVisionCore", "PureVisionKernels", "PureVisionTFLite"]),
        .target(
            name: "PureVisionImage",
            dependencies: [
                "PureVisionCore",
                .target(name: "CPureVisionPNG", condition: linuxOnly),
                .target(name: "CPureVisionJPEG", condition: linuxOnly),
                .target(name: "CPureVisionJPEGSupport", condition: linuxOnly),
            ]
        ),
        .target(
            name: "PureVision",
            dependencies: ["PureVisionEngine", "PureVisionImage", "PureVisionTFLite", "PureVisionKernels"]
        ),

        // Thin source-compatibility layers over PureVision's native API (see README, "Coming from MediaPipe or ML Kit").
        .target(name: "PureVisionMediaPipe", dependencies: ["PureVision"]),
        .target(name: "PureVisionMLKit", dependencies: ["PureVision"]),

        // MARK: Executables
        .executableTarget(
            name: "PureVisionCLI", dependencies: ["PureVisionEngine", "PureVision", "PureVisionImage"]),
        .executableTarget(
            name: "PureVisionBench",
            dependencies: [
                "PureVisionEngine", "PureVisionKernels", "PureVision", "PureVisionImage", "PureVisionTestSupport",
                "CPureVisionHeapStats",
            ],
            path: "Benchmarks/bench"),
        // The soak's heap figure (glibc's mallinfo2); elsewhere it reports -1.
        .target(name: "CPureVisionHeapStats", path: "Benchmarks/CPureVisionHeapStats"),

        // MARK: Test support and unit test bundles
        .target(name: "PureVisionTestSupport", dependencies: ["PureVisionCore"]),
        .testTarget(name: "PureVisionCoreTests", dependencies: ["PureVisionCore", "PureVisionTestSupport"]),
        .testTarget(
            name: "PureVisionKernelsTests", dependencies: ["PureVisionKernels", "PureVisionTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "PureVisionTFLiteTests", dependencies: ["PureVisionTFLite", "PureVisionTestSupport"]),
        .testTarget(
            name: "PureVisionImageTests", dependencies: ["PureVisionImage", "PureVisionTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "PureVisionTests",
            dependencies: [
                "PureVision", "PureVisionImage", "PureVisionEngine", "PureVisionKernels", "PureVisionTFLite",
                "PureVisionTestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "PureVisionMediaPipeTests",
            dependencies: ["PureVisionMediaPipe", "PureVision", "PureVisionTestSupport"]),
        .testTarget(
            name: "PureVisionMLKitTests", dependencies: ["PureVisionMLKit", "PureVision", "PureVisionTestSupport"]),
        .testTarget(
            name: "PureVisionCLITests",
            dependencies: [
                "PureVisionCLI", "PureVision", "PureVisionEngine", "PureVisionImage", "PureVisionTestSupport",
            ]),
        .testTarget(
            name: "PureVisionEngineTests",
            dependencies: ["PureVisionEngine", "PureVisionTFLite", "PureVisionTestSupport"],
            exclude: ["Fixtures"]
        ),
    ]
)
