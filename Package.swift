// swift-tools-version:6.0
import PackageDescription

// PureVision: MediaPipe's vision models, read from their own .tflite / .task files and run natively in Swift.
//
// Dependency arrows (imports):
//   Kernels -> TensorCore, COpenBLAS (Linux) / Accelerate (Apple)
//   TFLite  -> TensorCore            (the reader stays pure: it never sees kernels)
//   Engine  -> Kernels, TFLite
//   ImageIO -> TensorCore, CPNG, CJPEG
//   PureVision (vision tasks) -> Engine, ImageIO
//   purevision (CLI), bench -> PureVision
//   _TestSupport -> TensorCore

let package = Package(
    name: "PureVision",
    // The thread pool's atomics (the Synchronization module) need these OS versions on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Engine", targets: ["Engine"]),
        .library(name: "TFLite", targets: ["TFLite"]),
        .library(name: "ImageIO", targets: ["ImageIO"]),
        .library(name: "PureVision", targets: ["PureVision"]),
        .executable(name: "purevision", targets: ["PureVisionCLI"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    targets: [
        // MARK: System libraries (Debian: libopenblas-dev, libpng-dev, libjpeg-dev)
        .systemLibrary(name: "COpenBLAS", path: "Sources/COpenBLAS"),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG"),
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG"),

        // MARK: Public API
        .target(name: "TensorCore"),
        .target(
            name: "Kernels",
            dependencies: [
                "TensorCore",
                .target(name: "COpenBLAS", condition: .when(platforms: [.linux])),
            ]
        ),
        .target(name: "TFLite", dependencies: ["TensorCore"]),
        .target(name: "Engine", dependencies: ["TensorCore", "Kernels", "TFLite"]),
        // libjpeg reports errors by longjmp; this small C target is the only place that catches them.
        .target(name: "CJPEGSupport", dependencies: ["CJPEG"], linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "ImageIO", dependencies: ["TensorCore", "CPNG", "CJPEG", "CJPEGSupport"]),
        .target(name: "PureVision", dependencies: ["Engine", "ImageIO", "TFLite", "Kernels"]),

        // MARK: Executables
        .executableTarget(name: "PureVisionCLI", dependencies: ["Engine", "PureVision", "ImageIO"]),
        .executableTarget(
            name: "bench", dependencies: ["Engine", "Kernels", "PureVision", "ImageIO", "_TestSupport"],
            path: "Benchmarks/bench"),

        // MARK: Test support and unit test bundles
        .target(name: "_TestSupport", dependencies: ["TensorCore"]),
        .testTarget(name: "TensorCoreTests", dependencies: ["TensorCore", "_TestSupport"]),
        .testTarget(name: "KernelsTests", dependencies: ["Kernels", "_TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "TFLiteTests", dependencies: ["TFLite", "_TestSupport"]),
        .testTarget(name: "ImageIOTests", dependencies: ["ImageIO", "_TestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "PureVisionTests",
            dependencies: ["PureVision", "ImageIO", "Engine", "TFLite", "_TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "EngineTests",
            dependencies: ["Engine", "TFLite", "_TestSupport"],
            exclude: ["Fixtures"]
        ),
    ]
)
