// fuzz-rpc: bytes a client could send on the control socket, through the daemon's own line
// decoder, request dispatcher and handler (docs/fuzzing.md).
//
// Input: a byte choosing the line-length limit (48, 200, 4096 bytes or the socket's 1 MiB), a
// byte seeding how the stream is cut into reads (partial frames), then the stream itself.
// Each input gets a new `DaemonHost` on a fresh data directory, so inputs do not share state.
import AsyncActions
import ControlChannel
import ControlProtocol
import ControlServer
import Daemon
import Foundation
import FuzzSupport
import Logging
import NIOCore
import NIOEmbedded
import Session
import TaskModel

let examples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples", isDirectory: true)
/// Data directories live in /dev/shm when there is one: the run store fsyncs every write, which
/// on a disk would make the fuzzer wait on the disk rather than run code.
let scratch = (FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory)
    .appendingPathComponent("fuzz-rpc-\(getpid())", isDirectory: true)
let quiet = Logger(label: "fuzz-rpc") { _ in SwiftLogNoOpLogHandler() }
let lineLimits = [48, 200, 4096, ControlLineDecoder.defaultMaximumLength]
/// The codes docs/protocol.md lists; a response with any other is malformed.
let documentedCodes = Set(ControlErrorCode.allCases.map(\.rawValue))
nonisolated(unsafe) var inputNumber = 0
// Each input removes its own data directory; the process removes their (then empty) parent.
atexit { _ = rmdir(scratch.path) }

FuzzDriver.main(name: "fuzz-rpc", usage: "limit byte, read-size seed byte, then control-socket bytes") { input in
    var input = input
    let limit = lineLimits[input.choice(lineLimits.count)]
    var seed = UInt32(input.byte()) | 1
    let stream = Array(input.rest())
    inputNumber += 1
    let dataDirectory = scratch.appendingPathComponent("\(inputNumber)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: dataDirectory) }

    // The decoder, fed the stream in reads of 1 to 97 bytes, then closed (a last line without \n).
    let channel = EmbeddedChannel()
    let collector = FrameCollector()
    try! channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(ControlLineDecoder(maximumLength: limit)))
    try! channel.pipeline.syncOperations.addHandler(collector)
    var offset = 0
    while offset < stream.count {
        seed = seed &* 1_103_515_245 &+ 12_345
        let size = min(1 + Int(seed >> 16) % 97, stream.count - offset)
        try! channel.writeInbound(NIOCore.ByteBuffer(bytes: stream[offset..<offset + size]))
        offset += size
    }
    _ = try? channel.finish(acceptAlreadyClosed: true)
    let expected = ReferenceFraming.frames(of: stream, limit: limit)
    precondition(collector.frames.map(ReferenceFraming.Frame.init) == expected,
                 "The decoder framed the stream differently from the reference: \(collector.frames.count) frames, expected \(expected.count).")

    // The dispatcher and the real handler, one frame after another as a connection's reader does.
    let host = DaemonHost(settings: settings(dataDirectory))
    let registry = ControlConnectionRegistry(logger: quiet)
    let dispatcher = ControlRequestDispatcher(handler: host, registry: registry, logger: quiet, maximumLineLength: limit)
    let (_, continuation) = AsyncStream.makeStream(of: ControlOutbound.self, bufferingPolicy: .bufferingOldest(64))
    // Events are written straight to the connection's channel: an open one, to read them back from.
    let eventChannel = EmbeddedChannel()
    let connection = registry.add(outbox: continuation, channel: eventChannel, peer: .unknown, eventLimit: 64)!
    let frames = collector.frames
    let outcome = FuzzBlocking.run { () async -> ConnectionOutcome in
        var outcome = ConnectionOutcome()
        for frame in frames {
            outcome.responses.append(await dispatcher.respond(to: frame, connection: connection, peer: .unknown))
        }
        outcome.info = try? await dispatcher.call(ControlMethods.daemonInfo, NoParams(), connection: connection, peer: .unknown)
        outcome.status = try? await dispatcher.call(ControlMethods.runStatus, NoParams(), connection: connection, peer: .unknown)
        // Leave nothing running: a started run is discarded with its directory.
        if let status = outcome.status, [.running, .waitingForPermission, .paused].contains(status.state) {
            _ = try? await dispatcher.call(ControlMethods.runCancel, CancelParams(save: false), connection: connection, peer: .unknown)
        }
        return outcome
    }

    for (frame, response) in zip(frames, outcome.responses) {
        ResponseCheck.check(response, for: frame)
    }
    if let info = outcome.info, let status = outcome.status {
        precondition(info.session == status.state, "daemon.info says \(info.session) but run.status says \(status.state).")
    } else {
        preconditionFailure("daemon.info or run.status failed after the input.")
    }

    // The connection's subscription is what its successful subscribe and unsubscribe requests said.
    var model = SubscriptionModel()
    for (frame, response) in zip(frames, outcome.responses) { model.apply(frame, response: response) }
    for kind in ControlEventKind.allCases {
        registry.broadcast(NIOCore.ByteBuffer(string: kind.rawValue), kind: kind)
    }
    continuation.finish()
    var received: [String] = []
    while case .event(let line)? = try! eventChannel.readOutbound(as: ControlOutbound.self) {
        received.append(String(buffer: line))
    }
    _ = try? eventChannel.finish(acceptAlreadyClosed: true)
    precondition(received == model.kinds.map(\.rawValue),
                 "The connection received \(received) but its requests subscribed it to \(model.kinds.map(\.rawValue)).")
    precondition(registry.count == 1, "The registry lost or gained a connection.")
    registry.remove(connection)
    precondition(registry.count == 0, "A removed connection is still registered.")
}

/// The daemon's settings on `dataDirectory`: the simulated IMU and the null PCMs, no voice, and
/// a controller registry with nothing registered, so every async action gets the product's
/// `UnsupportedAsyncActionController` (no device is opened and nothing records in real time).
func settings(_ dataDirectory: URL) -> DaemonSettings {
    DaemonSettings(
        dataDirectory: dataDirectory, taskDirectory: examples,
        devices: DaemonDevices(iioURI: "sim:", captureDevice: "null", playbackDevice: "null"), voice: nil,
        permissionPolicy: PermissionPolicy(), typeRegistry: .standard, controllers: AsyncActionControllerRegistry(),
        retention: nil, logger: quiet)
}

/// What one input's connection got back, and the daemon's state after it.
struct ConnectionOutcome: Sendable {
    /// One entry per frame: the response, or nil when none was due.
    var responses: [JSONRPCResponse?] = []
    var info: DaemonInfo?
    var status: SessionStatus?
}
