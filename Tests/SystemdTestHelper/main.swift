// A child process for the Systemd tests: drives the module's pieces against the sockets and
// environment the test set up (NOTIFY_SOCKET, WATCHDOG_USEC, LISTEN_FDS), as activetaskd will.
import Foundation
import Logging
import ServiceLifecycle
import Systemd

let arguments = Array(CommandLine.arguments.dropFirst())
let destination = SystemLogging.destination(environment: ProcessInfo.processInfo.environment)
if arguments.first == "journal" {
    LoggingSystem.bootstrap(SystemLogging.handlerFactory(identifier: "activetask-test", destination: destination))
} else {
    LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
}
let logger = Logger(label: "systemd-test-helper")

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

switch arguments.first {
case "notify":
    // The order activetaskd uses: recover, then READY with idle, record, ping, stop.
    let notifier = SystemdNotifier()
    do {
        let sent = [
            try notifier.status(.recovering(runs: 2)),
            try notifier.ready(status: .idle),
            try notifier.status(.recording(task: "WalkAndBalance", stepPath: "WalkAndBalance/walk/motion")),
            try notifier.watchdog(),
            try notifier.stopping(),
        ]
        print(sent.map(String.init).joined(separator: " "))
    } catch {
        fail("\(error)")
    }

case "watchdog":
    // A "recorder thread" that beats until `hangAfter` seconds, then hangs; the probe reports it
    // stuck once its last beat is older than three ping periods.
    guard arguments.count == 3, let hangAfter = Double(arguments[1]), let runFor = Double(arguments[2]) else {
        fail("usage: watchdog HANG_AFTER_SECONDS RUN_SECONDS")
    }
    let heartbeat = Heartbeat()
    let thread = Thread {
        let start = Date()
        while true {
            if Date().timeIntervalSince(start) < hangAfter { heartbeat.beat() }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
    thread.start()
    do {
        guard let service = try WatchdogService.fromEnvironment(logger: logger, probe: {
            heartbeat.secondsSinceLastBeat() > 0.3 ? ["recorder-thread"] : []
        }) else { fail("The watchdog is not enabled: set WATCHDOG_USEC.") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            try await Task.sleep(for: .seconds(runFor))
            group.cancelAll()
        }
    } catch is CancellationError {
    } catch {
        fail("\(error)")
    }
    print("done")

case "listen":
    // Reports the descriptors socket activation passed, on the first connection.
    do {
        let descriptors = try SocketActivation.listeningDescriptors()
        print("descriptors=\(descriptors.map(String.init).joined(separator: ","))")
        guard let listener = descriptors.first else { exit(0) }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { fail("accept failed: \(String(cString: strerror(errno)))") }
        let report = Array("descriptors=\(descriptors.map(String.init).joined(separator: ","))\n".utf8)
        _ = report.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        close(connection)
    } catch {
        print("error=\(error)")
    }

case "service-group":
    // The daemon's shape: the watchdog first in a ServiceGroup that stops gracefully on SIGTERM.
    do {
        guard let watchdog = try WatchdogService.fromEnvironment(logger: logger, probe: { [] }) else {
            fail("The watchdog is not enabled: set WATCHDOG_USEC.")
        }
        let group = ServiceGroup(services: [watchdog], gracefulShutdownSignals: [.sigterm], logger: logger)
        try await group.run()
        try SystemdNotifier().stopping()
        print("stopped")
    } catch {
        fail("\(error)")
    }

case "journal":
    // One entry with the run fields, through whichever destination the chooser picked.
    print(destination)
    var runLogger = Logger(label: "activetask.session")
    runLogger[metadataKey: "taskRunUUID"] = "0B7F3C9E-5D1A-4C2B-9E8F-123456789ABC"
    runLogger.warning("Recorder stalled", metadata: [
        "stepPath": "WalkAndBalance/walk/motion", "taskIdentifier": "WalkAndBalance", "asyncAction": "motion", "peerPID": "4242",
    ])

case "log-destination":
    print(SystemLogging.destination(environment: ProcessInfo.processInfo.environment))

default:
    fail("usage: systemd-test-helper notify|watchdog HANG RUN|service-group|listen|journal|log-destination")
}

/// The last time the worker thread made progress.
final class Heartbeat: @unchecked Sendable {
    private let lock = NSLock()
    private var last = Date()

    func beat() { lock.withLock { last = Date() } }
    func secondsSinceLastBeat() -> Double { lock.withLock { Date().timeIntervalSince(last) } }
}
