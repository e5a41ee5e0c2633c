import ControlServer
import Foundation
import Logging
import ServiceLifecycle

// control-test-server --socket PATH | --listen-fd N [--data-dir D] [--queue-limit N] [--tick S]
// A control server over CannedSession, for protocol tests without the daemon.
var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    guard name.hasPrefix("--"), let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("usage: control-test-server --socket PATH | --listen-fd N [--data-dir D] [--queue-limit N] [--tick SECONDS]\n".utf8))
        exit(2)
    }
    options[String(name.dropFirst(2))] = value
}
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = ProcessInfo.processInfo.environment["CONTROL_TEST_LOG"] == "debug" ? .debug : .info
    return handler
}
let logger = Logger(label: "control-test-server")
let listener: ControlServerConfiguration.Listener
if let descriptor = options["listen-fd"].flatMap(Int32.init) {
    listener = .inheritedDescriptor(descriptor)
} else if let path = options["socket"] {
    listener = .path(path)
} else {
    FileHandle.standardError.write(Data("control-test-server: pass --socket PATH or --listen-fd N\n".utf8))
    exit(2)
}
var configuration = ControlServerConfiguration(listener: listener)
if let limit = options["queue-limit"].flatMap(Int.init) { configuration.outboundQueueLimit = limit }
let session = CannedSession(dataDirectory: options["data-dir"] ?? "/tmp/control-test-server",
                            tick: options["tick"].flatMap(Double.init) ?? 0.05)
let server = ControlServer(configuration: configuration, handler: session, logger: logger) {
    // Tests wait for this line before connecting.
    FileHandle.standardOutput.write(Data("listening\n".utf8))
}
let group = ServiceGroup(services: [session, server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
try await group.run()
