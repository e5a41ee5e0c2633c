import Foundation
import Glibc
import TestSupport

/// A minimal control-socket client written for these tests from docs/protocol.md alone: a
/// blocking Unix stream socket, one JSON object per line. It is used from a thread of its own
/// (`onOwnThread`); every read is bounded by a receive time-out.
final class LineClient: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer = Data()
    private var nextID = 1
    /// Event notifications read while waiting for responses, oldest first.
    private(set) var events: [[String: Any]] = []

    /// `timeout` bounds every read and write; it widens by the sanitizer slowdown
    /// (`TestTiming.scale`), since nothing here waits for a time-out on purpose.
    init(path: String, timeout: Double = 10) throws {
        let timeout = TestTiming.tolerance(timeout)
        // A local until it is connected: once every stored property is set, a throwing init
        // runs deinit, which would close the descriptor a second time, and by then its number
        // may belong to another test's file in this process.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw DaemonTestFailure("socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        guard withUnixSocketAddress(path, { connect(descriptor, $0, $1) }) == 0 else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            throw DaemonTestFailure("connect \(path): \(message)")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Sends raw bytes.
    func send(_ data: Data) throws {
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw DaemonTestFailure("send: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// The next message as a JSON object; throws on time-out or when the daemon closes.
    func readMessage() throws -> [String: Any] {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                    throw DaemonTestFailure("the daemon sent a line that is not an object: \(String(decoding: line, as: UTF8.self))")
                }
                return object
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else {
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw ReceiveTimedOut() }
                throw DaemonTestFailure(count == 0 ? "the daemon closed the connection" : "recv: \(String(cString: strerror(errno)))")
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// The next response (events read on the way are kept in `events`).
    func readResponse() throws -> [String: Any] {
        while true {
            let message = try readMessage()
            if message["id"] == nil, message["method"] as? String == "event" {
                events.append(message["params"] as? [String: Any] ?? [:])
                continue
            }
            return message
        }
    }

    /// Calls `method` and returns its whole response (`result` or `error`).
    func call(_ method: String, _ params: [String: Any]? = nil) throws -> [String: Any] {
        var request: [String: Any] = ["jsonrpc": "2.0", "id": nextID, "method": method]
        nextID += 1
        if let params { request["params"] = params }
        try send(JSONSerialization.data(withJSONObject: request) + Data("\n".utf8))
        return try readResponse()
    }

    /// Calls `method` and returns its result; throws with the error when it failed.
    func result(_ method: String, _ params: [String: Any]? = nil) throws -> [String: Any] {
        let response = try call(method, params)
        guard let result = response["result"] as? [String: Any] else {
            throw DaemonTestFailure("\(method) failed: \(response["error"] ?? response)")
        }
        return result
    }

    /// Reads until an event of `kind` arrives (bounded by `seconds` in all, a guard against a
    /// hang: a read that times out with nothing sent is read again until then, since a daemon
    /// may send nothing for a while on a machine that stalls) and returns it; events before it
    /// are dropped.
    func waitForEvent(_ kind: String, within seconds: Double = 15, where matches: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            while let event = events.first {
                events.removeFirst()
                if event["kind"] as? String == kind, matches(event) { return event }
            }
            let message: [String: Any]
            do { message = try readMessage() } catch is ReceiveTimedOut { continue }
            if message["method"] as? String == "event" { events.append(message["params"] as? [String: Any] ?? [:]) }
        }
        throw DaemonTestFailure("no \(kind) event within \(seconds) s")
    }

    /// The next event of any kind: the oldest one kept, else the next one read (bounded by the
    /// receive time-out).
    func nextEvent() throws -> [String: Any] {
        if !events.isEmpty { return events.removeFirst() }
        while true {
            let message = try readMessage()
            if message["method"] as? String == "event" { return message["params"] as? [String: Any] ?? [:] }
        }
    }
}

/// A read that waited the socket's receive time-out and got nothing.
struct ReceiveTimedOut: Error, CustomStringConvertible {
    var description: String { "recv: nothing arrived within the receive time-out" }
}

extension Dictionary where Key == String, Value == Any {
    /// `error.code` of a response, or nil.
    var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
}

/// Runs a blocking socket exchange on a thread of its own (`onOwnThread`) and hands back its
/// JSON, which is not `Sendable` but is only ever read by the one caller that awaits it.
func offThread<T>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await onOwnThread { Handover(value: try body()) }.value
}

private struct Handover<T>: @unchecked Sendable {
    let value: T
}
