// swift-tools-version:6.1
// Benchmarks of activetask's hot paths, kept out of the main package so its build and tests do
// not need the benchmark library. Run: cd Benchmarks && swift package benchmark
import PackageDescription

let package = Package(
    name: "ActiveTaskBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `ActiveTask` is a symlink to the repository root, so the dependency's identity does
        // not depend on what the clone's directory is called.
        .package(path: "ActiveTask"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "MotionPipeline",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Motion", package: "ActiveTask"),
                .product(name: "IIO", package: "ActiveTask"),
                .product(name: "SampleFiles", package: "ActiveTask"),
                .product(name: "TaskModel", package: "ActiveTask"),
            ],
            path: "Benchmarks/MotionPipeline",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
