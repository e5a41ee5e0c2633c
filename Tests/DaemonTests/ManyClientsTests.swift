import Foundation
import Glibc
import Testing
import TestSupport

/// 200 clients connecting at once, subscribing and sending garbage while the daemon records:
/// every one is answered and the recording loses no sample (its samples are checked one by one).
@Suite("activetaskd: many clients during a recording")
struct ManyClientsTests {
    static let garbage: [(line: Data, code: Int)] = [
        (Data("{not json\n".utf8), -32700),
        (Data([0x7B, 0xFF, 0xFE, 0x7D, 0x0A]), -32700),
        (Data("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"daemon.info\"}]\n".utf8), -32600),
        (Data("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"no.such\"}\n".utf8), -32601),
        (Data("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"run.cancel\",\"params\":{\"save\":\"yes\"}}\n".utf8), -32602),
        (Data("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"run.start\"}\n".utf8), -32002),
    ]

    /// One client: subscribe, send every garbage line, expect each error; half of them then leave
    /// without reading the events queued for them. Returns nil, or what went wrong.
    static func misbehave(_ socket: String, index: Int) -> String? {
        do {
            let client = try LineClient(path: socket, timeout: 20)
            guard try client.result("events.subscribe")["subscribed"] as? Bool == true else { return "client \(index): not subscribed" }
            for (line, code) in garbage {
                try client.send(line)
                let answer = try client.readResponse()
                guard answer.errorCode == code else { return "client \(index): \(String(decoding: line, as: UTF8.self).prefix(60)) answered \(answer), not \(code)" }
            }
            if index.isMultiple(of: 2) { _ = try client.result("run.status") }
            return nil
        } catch {
            return "client \(index): \(error)"
        }
    }

    @Test("200 clients subscribing and sending garbage: all answered, zero samples lost, the run completes")
    func twoHundredClients() async throws {
        let fixture = try await DaemonFixture("many")
        let daemon = try await fixture.start()
        // The walk outlasts the 200 clients: under a sanitizer (TestTiming.scale) they take seconds,
        // and a run.start sent after the run ended would be answered otherwise.
        let walkSeconds = Int(4 * TestTiming.scale)
        let file = try fixture.write(task: DaemonTasks.walk("CrowdWalk", walking: walkSeconds), name: "walk")
        let watcher = try fixture.subscriber(to: ["stepShown"])

        async let run = fixture.ctl("run", file, "--auto", "--json")
        let socket = fixture.socket
        let walking = try await offThread {
            try watcher.waitForEvent("stepShown", within: 20) { $0["stepPath"] as? String == "CrowdWalk/walk/walking" }
        }
        #expect(walking["stepPath"] as? String == "CrowdWalk/walk/walking")
        let problems = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<200 {
                group.addTask { try await onOwnThread { Self.misbehave(socket, index: index) } }
            }
            return try await group.reduce(into: [String]()) { if let problem = $1 { $0.append(problem) } }
        }
        #expect(problems.isEmpty, "\(problems.count) of 200 clients not answered as expected, e.g. \(problems.prefix(4))")

        let output = try await run
        #expect(output.status == 0, "\(output.standardError)\n\(daemon.output.suffix(16000))")
        let summary = try RunFiles.lastLine(of: output.standardOutput)
        #expect(summary["status"] as? String == "completed")
        let directory = URL(fileURLWithPath: try #require(summary["runDirectory"] as? String))
        // Zero lost, exactly: the simulated IMU takes sample n at start + n / 100 s and delivers
        // every sample taken before the stop, however late (Sources/Motion's
        // SimulatedMotionSource), so each sensor's samples in the file are one unbroken series,
        // 10 ms apart (to rounding), from the first to the last, and the series spans the steps.
        for sensor in ["accelerometer", "gyro", "userAcceleration"] {
            let motion = try RunFiles.Motion(directory.appendingPathComponent("walk_motion.json"), sensor: sensor)
            let uptimes = motion.samples.compactMap { $0["uptime"] as? Double }
            #expect(uptimes.count == motion.samples.count, "\(sensor): a sample without an uptime")
            let irregular = zip(uptimes, uptimes.dropFirst()).filter { abs($1 - $0 - 0.01) > 1e-6 }
            #expect(irregular.isEmpty, "\(sensor): \(irregular.count) intervals are not 10 ms, the first \(irregular.prefix(3))")
            #expect(motion.samples.count == Int(((uptimes.last ?? 0) - (uptimes.first ?? 0)) * 100 + 0.5) + 1, "\(sensor): \(motion.samples.count) samples")
            #expect(motion.covers(seconds: Double(1 + walkSeconds)), "\(sensor): span \(motion.span) s")
        }
        #expect(DaemonFixture.accepts(fixture.socket))
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(16000))")
    }
}
