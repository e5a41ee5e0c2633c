import Foundation
import Glibc
import Synchronization
import Testing

@testable import BlockingCalls

@Suite("Dedicated threads, deadlines and heartbeats")
struct BlockingCallsTests {
    /// A pipe whose read end blocks until something is written: a stand-in for a hung call.
    final class Gate: Sendable {
        let fds: [Int32]
        init() {
            var fds: [Int32] = [0, 0]
            pipe(&fds)
            self.fds = fds
        }
        func wait() {
            var byte: UInt8 = 0
            _ = read(fds[0], &byte, 1)
        }
        func open() {
            var byte: UInt8 = 1
            _ = write(fds[1], &byte, 1)
        }
    }

    @Test("A call runs on a thread of its own and returns its value or its error")
    func runs() async throws {
        // The kernel's name of the thread the call ran on.
        let name = try await BlockingCall.run("probe-thread") {
            (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
        }
        #expect(name == "probe-thread")
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await BlockingCall.run("refuse") { throw Refused() } }
    }

    @Test("A call past its deadline throws at the deadline, shows as stalled, and disappears when it returns")
    func deadline() async throws {
        let gate = Gate()
        let started = ContinuousClock.now
        await #expect(throws: BlockingCallTimeout.self) {
            try await BlockingCall.run("hung-call-test", deadline: .milliseconds(200)) { gate.wait() }
        }
        let waited = ContinuousClock.now - started
        // At the deadline; the margin only absorbs a loaded machine's scheduling.
        #expect(waited >= .milliseconds(200) && waited < .seconds(5))
        #expect(ThreadHeartbeats.stalled(olderThan: .milliseconds(100)).contains("hung-call-test"))
        #expect(!ThreadHeartbeats.stalled(olderThan: .seconds(30)).contains("hung-call-test"))
        gate.open()
        for _ in 0..<100 where ThreadHeartbeats.threadNames.contains("hung-call-test") {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!ThreadHeartbeats.threadNames.contains("hung-call-test"))
    }

    @Test("A loop that beats is not stalled; one stuck in a call is; an idle one never is")
    func heartbeats() async throws {
        let gate = Gate()
        let phase = Mutex(0)
        let thread = DedicatedThread(name: "beating-loop") { heartbeat in
            heartbeat.idle()
            while phase.withLock({ $0 }) == 0 { usleep(1_000) }
            heartbeat.beat()
            gate.wait()
        }
        try await Task.sleep(for: .milliseconds(150))
        #expect(!ThreadHeartbeats.stalled(olderThan: .milliseconds(100)).contains("beating-loop"))
        phase.withLock { $0 = 1 }
        try await Task.sleep(for: .milliseconds(150))
        #expect(ThreadHeartbeats.stalled(olderThan: .milliseconds(100)).contains("beating-loop"))
        #expect(await thread.finished(within: .milliseconds(50)) == false)
        gate.open()
        #expect(await thread.finished(within: .seconds(5)))
        #expect(thread.isFinished)
    }

    /// What the serial worker's jobs saw.
    final class SerialLog: Sendable {
        let order = Mutex<[Int]>([])
        let running = Mutex(0)
        let overlaps = Mutex(0)

        func job(_ value: Int) {
            if running.withLock({ $0 += 1; return $0 }) > 1 { overlaps.withLock { $0 += 1 } }
            usleep(1_000)
            order.withLock { $0.append(value) }
            running.withLock { $0 -= 1 }
        }
    }

    @Test("A serial thread runs jobs one at a time in submission order")
    func serial() async throws {
        let worker = SerialThread(name: "serial-test")
        let log = SerialLog()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask { await worker.run { log.job(index) } }
                // Each job is queued before the next one is submitted.
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        #expect(log.overlaps.withLock { $0 } == 0)
        #expect(log.order.withLock { $0 } == Array(0..<20))
    }
}
