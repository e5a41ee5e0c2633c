// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ActiveTask",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "activetaskctl", targets: ["activetaskctl"]),
        .library(name: "TaskModel", targets: ["TaskModel"]),
        .library(name: "TaskNavigation", targets: ["TaskNavigation"]),
        .library(name: "AsyncActions", targets: ["AsyncActions"]),
        .library(name: "SampleFiles", targets: ["SampleFiles"]),
        .library(name: "MotionFusion", targets: ["MotionFusion"]),
        .library(name: "IIO", targets: ["IIO"]),
        .library(name: "Motion", targets: ["Motion"]),
        .library(name: "ALSA", targets: ["ALSA"]),
        .library(name: "Voice", targets: ["Voice"]),
        .library(name: "Audio", targets: ["Audio"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    ],
    targets: [
        // The SageResearch task model: Codable tasks, steps, async action configurations, results.
        .target(
            name: "TaskModel",
            swiftSettings: strict
        ),
        // Navigation, step paths, async start/stop rules, spoken schedule and plan: pure functions.
        .target(
            name: "TaskNavigation",
            dependencies: ["TaskModel"],
            swiftSettings: strict
        ),
        // The recording clocks: CLOCK_BOOTTIME uptime, monotonic, wall-clock dates.
        .target(
            name: "Clocks",
            swiftSettings: strict
        ),
        // The async-action lifecycle shared by every recorder controller.
        .target(
            name: "AsyncActions",
            dependencies: [
                "TaskModel",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Streaming sample files (JSON array, CSV, WAV): bounded memory, fsync policy, crash repair.
        .target(
            name: "SampleFiles",
            dependencies: [
                "Clocks",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // Device-motion sensor fusion (attitude, gravity, userAcceleration, rotationRate,
        // calibrated magnetic field) from accelerometer + gyro (+ magnetometer) samples: pure, no I/O.
        .target(
            name: "MotionFusion",
            dependencies: [
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: strict
        ),
        // Micro-benchmark of MotionFusion: nanoseconds per fused sample.
        .executableTarget(
            name: "fusion-bench",
            dependencies: ["MotionFusion"],
            path: "Benchmarks/FusionBenchmark",
            swiftSettings: strict
        ),
        // libiio (Debian 12: 0.24), used only by the IIO module.
        .systemLibrary(
            name: "CLibIIO",
            pkgConfig: "libiio",
            providers: [.apt(["libiio-dev"])]
        ),
        // Linux IIO devices through libiio: contexts, devices, channels, attributes, buffers.
        .target(
            name: "IIO",
            dependencies: ["CLibIIO"],
            swiftSettings: strict
        ),
        // Motion capture: sensor discovery, scan decoding, CoreMotion units, the motion recorder.
        .target(
            name: "Motion",
            dependencies: [
                "Clocks",
                "IIO", "MotionFusion", "SampleFiles", "AsyncActions", "TaskModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // libasound (ALSA), wrapped only by the ALSA module.
        .systemLibrary(
            name: "CALSA",
            pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]
        ),
        // libespeak-ng, wrapped only by the Voice module.
        .systemLibrary(
            name: "CEspeakNG",
            pkgConfig: "espeak-ng",
            providers: [.apt(["libespeak-ng-dev"])]
        ),
        // PCM capture and playback, hw/sw params, timestamps, xrun recovery, device listing.
        .target(
            name: "ALSA",
            dependencies: [
                "Clocks",
                "CALSA",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Spoken instructions: espeak-ng synthesis, WAV clips, tones, scheduled playback.
        .target(
            name: "Voice",
            dependencies: [
                "Clocks",
                "CEspeakNG",
                "ALSA",
                "SampleFiles",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The microphone recorder: WAV file and one-second levels.
        .target(
            name: "Audio",
            dependencies: [
                "Clocks",
                "ALSA",
                "AsyncActions",
                "SampleFiles",
                "TaskModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "activetaskctl",
            dependencies: [
                "Clocks",
                "TaskModel",
                "TaskNavigation",
                "Motion",
                "MotionFusion",
                "IIO",
                "ALSA",
                "Audio",
                "Voice",
                "AsyncActions",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // Test helpers shared by the test targets: package root, shared corpus, scratch
        // directories, the built activetaskctl.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "SampleFilesTests",
            dependencies: ["SampleFiles"],
            swiftSettings: strict
        ),
        // CPU and allocation benchmark of the recorder and prompts (scripts/bench-audio.sh).
        .executableTarget(
            name: "audio-benchmark",
            dependencies: [
                "Clocks",
                "ALSA", "Audio", "Voice", "AsyncActions", "TaskModel",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/AudioBenchmark",
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioTests",
            dependencies: [
                "Clocks",
                "ALSA", "Audio", "Voice", "SampleFiles", "AsyncActions", "TaskModel", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TaskModelTests",
            dependencies: ["TaskModel", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TaskNavigationTests",
            dependencies: ["TaskNavigation", "TaskModel", "TestSupport"],
            swiftSettings: strict
        ),
        // Drives the built activetaskctl as a subprocess.
        .testTarget(
            name: "ActiveTaskCtlTests",
            dependencies: ["activetaskctl", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MotionFusionTests",
            dependencies: [
                "MotionFusion",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MotionTests",
            dependencies: [
                "Clocks", "Motion", "IIO", "SampleFiles", "TaskModel", "AsyncActions", "TestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AsyncActionsTests",
            dependencies: ["AsyncActions"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
