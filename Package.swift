// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The release binaries are linked by lld with packed relative relocations (DT_RELR): a PIE's
/// 104 000 relative relocations take kilobytes instead of the 2.5 MB the loader reads at start
/// and that then stay resident (docs/benchmarks.md, "Steady state"). Debug, test, sanitizer and
/// fuzz builds keep the default linker.
///
/// `--no-export-dynamic` undoes the static runtime's `-export-dynamic`: nothing looks the
/// programs' own symbols up at run time, and their dynamic symbol table was 2.8 MB of every
/// package (docs/benchmarks.md, "Installed size of the Debian packages").
let releaseLink: [LinkerSetting] = [
    .unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
        .when(platforms: [.linux], configuration: .release)
    )
]

let package = Package(
    name: "ActiveTask",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "activetaskctl", targets: ["activetaskctl"]),
        .executable(name: "activetaskd", targets: ["activetaskd"]),
        .executable(name: "activetask-web", targets: ["activetask-web"]),
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
        .library(name: "Systemd", targets: ["Systemd"]),
        .library(name: "DaemonConfig", targets: ["DaemonConfig"]),
        .library(name: "Session", targets: ["Session"]),
        // The daemon as a library: `ActiveTaskDaemon.run(arguments:registry:)` (docs/custom-tasks.md).
        .library(name: "Daemon", targets: ["Daemon"]),
        .library(name: "BlockingCalls", targets: ["BlockingCalls"]),
        .library(name: "SystemCalls", targets: ["SystemCalls"]),
        .library(name: "CryptoCalls", targets: ["CryptoCalls"]),
        .library(name: "Recorders", targets: ["Recorders"]),
        .library(name: "Quality", targets: ["Quality"]),
        .library(name: "RunReport", targets: ["RunReport"]),
        .library(name: "Upload", targets: ["Upload"]),
        .library(name: "Metrics", targets: ["Metrics"]),
        .executable(name: "activetask-upload", targets: ["activetask-upload"]),
        .executable(name: "activetask", targets: ["activetask"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(
            url: "https://github.com/apple/swift-configuration", from: "1.4.0",
            traits: [.defaults, "CommandLineArguments"]
        ),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
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
        // One wrapper per system call for files, sleeping and clocks: typed errors, EINTR
        // retried in one place (docs/system-calls.md).
        .target(
            name: "SystemCalls",
            dependencies: [
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // The recording clocks: CLOCK_BOOTTIME uptime, monotonic, wall-clock dates.
        .target(
            name: "Clocks",
            dependencies: ["SystemCalls"],
            swiftSettings: strict
        ),
        // Dedicated threads for blocking calls (libiio, ALSA, espeak-ng, fsync) and their
        // heartbeats for a watchdog.
        .target(
            name: "BlockingCalls",
            dependencies: [
                "Clocks", "SystemCalls",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // A long-running program's code paged out of memory while it is idle (docs/daemon.md,
        // "Memory"): activetaskd and activetask-web.
        .target(
            name: "CodePageOut",
            dependencies: [
                "BlockingCalls", "SystemCalls",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The async-action lifecycle shared by every recorder controller, and the registry.
        .target(
            name: "AsyncActions",
            dependencies: [
                "Clocks",
                "TaskModel",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Streaming sample files (JSON array, CSV, WAV): bounded memory, fsync policy, crash repair.
        .target(
            name: "SampleFiles",
            dependencies: [
                "Clocks", "SystemCalls",
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
            dependencies: ["MotionFusion", "FusionBenchSupport"],
            path: "Benchmarks/FusionBenchmark",
            swiftSettings: strict
        ),
        // fusion-bench's settings overrides (a target of their own so tests can reach them).
        .target(
            name: "FusionBenchSupport",
            dependencies: ["MotionFusion"],
            path: "Benchmarks/FusionBenchSupport",
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
            dependencies: ["CLibIIO", "Clocks"],
            swiftSettings: strict
        ),
        // Motion capture: sensor discovery, scan decoding, CoreMotion units, the motion recorder.
        .target(
            name: "Motion",
            dependencies: [
                "BlockingCalls", "Clocks", "SystemCalls",
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
                "BlockingCalls", "Clocks",
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
                "BlockingCalls", "Clocks",
                "ALSA",
                "AsyncActions",
                "SampleFiles",
                "TaskModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // The built-in async-action controllers (motion with fusion, microphone) in one registry.
        .target(
            name: "Recorders",
            dependencies: ["AsyncActions", "Audio", "Motion", "MotionFusion", "TaskModel"],
            swiftSettings: strict
        ),
        // Quality checks of a finished run directory (qc.json): rates, gaps, stuck and clipped
        // values, audio silence and clipping, late prompts, controller failures. Reads files only.
        .target(
            name: "Quality",
            dependencies: ["SampleFiles", "SystemCalls", "TaskModel"],
            swiftSettings: strict
        ),
        // The run report: one self-contained HTML file with inline SVG plots and the QC table.
        .target(
            name: "RunReport",
            dependencies: [
                "Quality", "SystemCalls",
                .product(name: "Plot", package: "Plot"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "QualityTests",
            dependencies: ["Quality", "RunReport", "TestSupport"],
            exclude: ["Support/check_report.py"],
            swiftSettings: strict
        ),
        // The control socket's language: JSON-RPC 2.0 messages, methods, wire events, OpenRPC.
        // Foundation only, shared by the server and activetaskctl.
        .target(
            name: "ControlProtocol",
            dependencies: ["TaskModel", "TaskNavigation"],
            swiftSettings: strict
        ),
        // NIO pieces both ends of the control socket share: line framing with a length limit.
        .target(
            name: "ControlChannel",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The control socket service: Unix socket, per-connection tasks, dispatch, event fan-out.
        .target(
            name: "ControlServer",
            dependencies: [
                "ControlProtocol", "ControlChannel", "SystemCalls",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The control socket client activetaskctl uses.
        .target(
            name: "ControlClient",
            dependencies: [
                "ControlProtocol", "ControlChannel",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The kiosk UI's server: static files and one WebSocket per tab relayed line for line to
        // the control socket, on SwiftNIO's own HTTP/1 and WebSocket handlers (docs/kiosk.md).
        .target(
            name: "WebRelay",
            dependencies: [
                "ControlChannel", "ControlProtocol", "TaskModel",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Assets")],
            swiftSettings: strict
        ),
        // activetask-web's command line: arguments and bootstrap of WebRelayServer (a library so
        // that the multi-call `activetask` runs it too).
        .target(
            name: "WebCommandLine",
            dependencies: [
                "WebRelay", "CodePageOut",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "activetask-web",
            dependencies: ["WebCommandLine", "ICUData"],
            swiftSettings: strict,
            linkerSettings: releaseLink
        ),
        // activetask-web's pure parts: the access policy, listen addresses, the asset catalog.
        // (With the real daemon and a browser: DaemonTests/Web.)
        .testTarget(
            name: "WebRelayTests",
            dependencies: ["WebRelay", "ControlProtocol", "TestSupport"],
            swiftSettings: strict
        ),
        // A control server answering from canned state, for protocol tests without the daemon.
        .executableTarget(
            name: "control-test-server",
            dependencies: [
                "ControlProtocol", "ControlServer", "TaskModel", "TaskNavigation",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/ControlTestServer",
            swiftSettings: strict
        ),
        .testTarget(
            name: "ControlProtocolTests",
            dependencies: ["ControlProtocol", "TaskModel", "TaskNavigation", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ControlServerTests",
            dependencies: [
                "ControlProtocol", "ControlServer", "ControlClient", "ControlChannel", "TaskModel", "TaskNavigation", "TestSupport",
                "control-test-server", "activetaskctl",
                // DaemonHandlerTableTests: the daemon's own handler table; DaemonMetricsTests: its metrics.
                "Daemon", "Session", "AsyncActions", "Quality", "Metrics",
                // DaemonRunNamingTests: the daemon's events through the relay's TabRunScope.
                "WebRelay",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The daemon behind the control socket: loads tasks, runs one task session at a time,
        // answers commands and turns session events into socket events; and its entry point
        // (Entry/: arguments, configuration, logging and the service group) for activetaskd
        // and embedders' daemons.
        .target(
            name: "Daemon",
            dependencies: [
                "ControlProtocol", "ControlServer", "Session", "AsyncActions", "BlockingCalls", "Clocks",
                "Motion", "ALSA", "Voice", "TaskModel", "Quality", "RunReport",
                "DaemonConfig", "Systemd", "Recorders", "Audio", "SampleFiles", "CodePageOut", "Metrics",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // Prometheus's text exposition format and its atomic text files for node_exporter's
        // textfile collector (docs/fleet.md): no port, no network.
        .target(
            name: "Metrics",
            dependencies: ["SystemCalls", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MetricsTests",
            dependencies: ["Metrics", "SystemCalls", "TestSupport"],
            swiftSettings: strict
        ),
        // activetaskd: `ActiveTaskDaemon.run` with the built-in types.
        // ICU's data for the static builds, trimmed to what the programs read (scripts/icu-data.py,
        // docs/install.md, "Size"): every executable that ships links it.
        .target(
            name: "ICUData",
            exclude: ["icudt76l.dat", "keep.txt"],
            publicHeadersPath: ".",
            cSettings: [.headerSearchPath(".")]
        ),
        .executableTarget(
            name: "activetaskd",
            dependencies: ["Daemon", "ICUData", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict,
            linkerSettings: releaseLink
        ),
        // What activetaskctl's commands print: JSON as the run directory stores it, errors to stderr.
        .target(
            name: "CommandOutput",
            dependencies: ["TaskModel"],
            swiftSettings: strict
        ),
        // activetaskctl's commands that need no daemon: task files, sensors, recording, voice,
        // fusion of raw files, quality checks and reports of run directories.
        .target(
            name: "OfflineCommands",
            dependencies: [
                "CommandOutput",
                "Clocks", "TaskModel", "TaskNavigation",
                "Motion", "MotionFusion", "ALSA", "Audio", "Voice", "AsyncActions",
                "Quality", "RunReport", "SystemCalls", "Upload",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // activetaskctl's commands that talk to activetaskd: status, runs, results, the run
        // front ends (interactive and --auto).
        .target(
            name: "DaemonCommands",
            dependencies: [
                "CommandOutput", "ControlProtocol", "ControlClient", "TaskModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // activetaskctl's root command listing the offline and daemon commands (a library so that
        // the multi-call `activetask` runs it too).
        .target(
            name: "CtlCommandLine",
            dependencies: [
                "OfflineCommands", "DaemonCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "activetaskctl",
            dependencies: ["CtlCommandLine", "ICUData"],
            swiftSettings: strict,
            linkerSettings: releaseLink
        ),
        // The four programs in one executable, run by the name it is called by, as busybox does:
        // what the Debian packages install, so that the Swift runtime, Foundation and ICU are
        // there once (docs/install.md, "Size").
        .executableTarget(
            name: "activetask",
            dependencies: [
                "CtlCommandLine", "Daemon", "UploadCommandLine", "WebCommandLine", "ICUData",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict,
            linkerSettings: releaseLink
        ),
        // Test helpers shared by the test targets: package root, shared corpus, scratch
        // directories, the built activetaskctl.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        // The custom task type the navigation, session and daemon tests share (docs/custom-tasks.md).
        .target(
            name: "ThresholdTask",
            dependencies: ["TaskModel", "TaskNavigation"],
            path: "Tests/ThresholdTask",
            swiftSettings: strict
        ),
        // The async-action conformance suite every controller is run against.
        .target(
            name: "RecorderConformance",
            dependencies: [
                "AsyncActions", "TaskModel", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/RecorderConformance",
            swiftSettings: strict
        ),
        // The system-call wrappers on real files, and the guard that keeps raw calls in them.
        .testTarget(
            name: "CodePageOutTests",
            dependencies: ["CodePageOut"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SystemCallsTests",
            dependencies: [
                "SystemCalls", "TestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RecordersTests",
            dependencies: [
                "Recorders", "AsyncActions", "Audio", "Motion", "TaskModel",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BlockingCallsTests",
            dependencies: ["BlockingCalls"],
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
                "BlockingCalls", "Clocks",
                "ALSA", "Audio", "Voice", "SampleFiles", "AsyncActions", "TaskModel", "TestSupport", "RecorderConformance",
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
            dependencies: ["TaskNavigation", "TaskModel", "TestSupport", "ThresholdTask"],
            swiftSettings: strict
        ),
        // Drives the built activetaskctl, and the multi-call activetask through symlinks, as subprocesses.
        .testTarget(
            name: "ActiveTaskCtlTests",
            dependencies: ["activetaskctl", "activetask", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MotionFusionTests",
            dependencies: [
                "MotionFusion", "FusionBenchSupport", "TestSupport",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            // Read from the source tree by path (BROADExcerptTests), not bundled.
            exclude: ["Data"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MotionTests",
            dependencies: [
                "BlockingCalls", "Clocks", "Motion", "IIO", "SampleFiles", "TaskModel", "AsyncActions", "TestSupport",
                "RecorderConformance",
            ],
            swiftSettings: strict
        ),
        // The task session: results as SageResearch writes them, run directories, the run
        // manifest, the upload archive and crash recovery (Sources/Session/RunStore, Results).
        .target(
            name: "Session",
            dependencies: [
                "TaskModel", "TaskNavigation", "AsyncActions", "BlockingCalls", "Clocks", "SystemCalls", "SampleFiles",
                "UploadFormats", "CryptoCalls",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),
        // A recording to be killed with SIGKILL by SessionTests' recovery test.
        .executableTarget(
            name: "run-crash-writer",
            dependencies: [
                "Session", "TaskModel", "SampleFiles",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/RunCrashWriter",
            swiftSettings: strict
        ),
        .testTarget(
            name: "SessionTests",
            dependencies: [
                "Session", "TaskModel", "TaskNavigation", "SampleFiles", "TestSupport", "run-crash-writer", "ThresholdTask",
                "Recorders", "AsyncActions", "Voice", "Quality", "Daemon", "Motion", "Audio",
                // RunStoreOutboxTests: activetask-upload reads the outbox entries the store writes.
                "Upload", "UploadFormats", "CryptoCalls",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AsyncActionsTests",
            dependencies: [
                "AsyncActions", "TaskModel", "RecorderConformance",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // libsystemd (sd_notify, sd_watchdog_enabled, sd_listen_fds, sd_journal_sendv), used only
        // by the Systemd module.
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // systemd integration: readiness and status notifications, the watchdog service, socket
        // activation, the journald log handler.
        .target(
            name: "Systemd",
            dependencies: [
                "CSystemd", "SystemCalls",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The daemon's configuration file, environment and command-line options, validated.
        .target(
            name: "DaemonConfig",
            dependencies: [
                "TaskModel", "Session",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // Test-only helper the Systemd tests run as a child: notifies, pings the watchdog and
        // reports the descriptors it inherited.
        .executableTarget(
            name: "systemd-test-helper",
            dependencies: [
                "Systemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/SystemdTestHelper",
            swiftSettings: strict
        ),
        // The real activetaskd as a subprocess: runs, protocol, many clients, take-over, signals,
        // systemd notify/watchdog/socket activation, start errors, the interactive front end.
        // An embedder's daemon: ActiveTaskDaemon.run with a custom task type (docs/custom-tasks.md).
        .executableTarget(
            name: "custom-task-daemon",
            dependencies: ["Daemon", "TaskModel", "ThresholdTask", .product(name: "Logging", package: "swift-log")],
            path: "Tests/CustomTaskDaemon",
            swiftSettings: strict
        ),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "TestSupport", "activetaskd", "activetaskctl", "custom-task-daemon", "activetask-web", "Clocks", "SampleFiles",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            // Run by WebRelaySecurityTests and WebBrowserTests from the package root.
            exclude: ["Web/web_security_check.py", "Web/browser_animation.py", "Web/browser_language.py", "Web/web_tls_check.py", "Web/web_limits_check.py", "Web/kiosk_access_check.py", "Web/kiosk_own_run_check.py", "Web/proc_token_scan.py", "Web/browser_tls.py", "Web/browser_walk.py", "Web/browser_survey.py", "Web/browser_reconnect.py", "Web/browser_support.py",
                      "Web/browser_tapping.py", "Web/browser_permission.py",
                      "Web/browser_appearance.py", "Web/browser_level.py", "Web/browser_learnmore.py", "Web/kiosk_check.py", "Web/browser_corpus.py"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SystemdTests",
            dependencies: [
                "Systemd", "DaemonConfig", "Session", "MotionFusion", "TaskModel", "TestSupport", "systemd-test-helper",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // libcurl and OpenSSL's libcrypto, wrapped only by the Upload module (docs/upload.md:
        // system libraries instead of async-http-client and swift-crypto keep CI's builds short).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Every libcrypto call in one file (LibCrypto.swift): digests, HMAC, base64, CMS. The
        // uploader signs and encrypts with it; the run store hashes each archive it writes.
        .target(
            name: "CryptoCalls",
            dependencies: [
                "CLibCrypto",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // The files activetaskd and activetask-upload hand each other in the data directory: the
        // outbox entry, the upload receipt and the uploader's queue snapshot. Foundation only, so
        // that Session reads them without linking libcurl and libcrypto and Upload without the run
        // store (README, "Layout"): one definition of each format for both sides.
        .target(
            name: "UploadFormats",
            swiftSettings: strict
        ),
        // Shipping finished archives to S3-compatible storage: Signature V4, the object key
        // template, the upload queue's state machine, single and multipart uploads, the outbox.
        // Reads the run store's formats only (UploadFormats), never Session or the daemon.
        .target(
            name: "Upload",
            dependencies: [
                "CCurl", "CryptoCalls", "BlockingCalls", "Clocks", "SystemCalls", "UploadFormats", "Metrics",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // activetask-upload's command line: settings, logging and the outbox service
        // (docs/upload.md; a library so that the multi-call `activetask` runs it too).
        .target(
            name: "UploadCommandLine",
            dependencies: [
                "Upload", "Systemd", "CodePageOut", "Metrics", "BlockingCalls",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "activetask-upload",
            dependencies: ["UploadCommandLine", "ICUData"],
            swiftSettings: strict,
            linkerSettings: releaseLink
        ),
        .testTarget(
            name: "UploadTests",
            dependencies: [
                // Session, TaskModel and activetaskd: the retention test finishes runs through the
                // daemon's RunStore and lets the real daemon apply retention.
                "Upload", "CryptoCalls", "TestSupport", "activetask-upload", "Session", "TaskModel", "activetaskd",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures", "Support"],
            swiftSettings: strict
        ),
        // Fuzz targets (docs/fuzzing.md, scripts/fuzz.sh): libFuzzer executables built with
        // -DFUZZING, replayers of their inputs otherwise. A new target is one main.swift here.
        .target(
            name: "FuzzSupport",
            path: "Fuzz/FuzzSupport",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-task",
            dependencies: ["FuzzSupport", "TaskModel", "TaskNavigation"],
            path: "Fuzz/TaskFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-answer",
            dependencies: ["FuzzSupport", "TaskModel", "TaskNavigation"],
            path: "Fuzz/AnswerFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-scan",
            dependencies: ["FuzzSupport", "IIO", "Motion"],
            path: "Fuzz/ScanFuzzer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fuzz-rpc",
            dependencies: [
                "FuzzSupport", "ControlChannel", "ControlProtocol", "ControlServer", "Daemon", "Session", "AsyncActions", "TaskModel",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Fuzz/RPCFuzzer",
            swiftSettings: strict
        ),
        // Replays the committed seed corpora through the fuzz targets built without FUZZING.
        .testTarget(
            name: "FuzzTests",
            dependencies: ["fuzz-task", "fuzz-answer", "fuzz-scan", "fuzz-rpc", "TestSupport"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
