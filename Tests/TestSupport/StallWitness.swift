public import Foundation
import Glibc
import Synchronization

/// Sees the machine itself stall while a real-time test runs, so that a test's upper bound on
/// lateness can allow for it (docs/testing.md, "Load").
///
/// A whole task recorded in real time judges when things happened: a countdown's marker two
/// seconds after its timer started, a recording as long as its step. When the whole machine
/// stops for seconds (a virtual machine not given its CPUs, a disk that does not answer), the
/// product is late by exactly that much and no code of its own could be on time; a bound that
/// does not allow for it judges the machine, not the product. Two witnesses run for the life of
/// the test process, at normal priority like the code under test:
/// - a thread that sleeps 10 ms at a time: a wake more than 50 ms late is time the machine did
///   not run a ready thread;
/// - a thread that writes 4 KiB and `fdatasync`s it every 250 ms in the temporary directory: a
///   write that takes more than 100 ms is time the disk held back every writer.
/// A test asks for the time stalled since it began and adds it to its upper bounds only; lower
/// bounds (never early) and everything else stay as they are. On a machine that does not stall,
/// beside any number of `nice -n 19` busy loops, the allowance is 0 and every bound is the stated
/// one.
public final class StallWitness: Sendable {
    /// A stretch of monotonic time in which the machine stalled.
    public struct Stall: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var kind: String
    }

    /// The one witness of the test process, started on first use.
    public static let shared = StallWitness()

    private let stalls = Mutex<[Stall]>([])
    /// CLOCK_MONOTONIC when the witnesses started: no stall before it can be seen.
    public let startedAt: Double

    static let wakeInterval = 0.010
    static let lateWake = 0.050
    static let writeInterval = 0.250
    static let slowWrite = 0.100

    private init() {
        startedAt = MonotonicTime.now()
        let scheduling = Thread { [self] in watchScheduling() }
        scheduling.name = "stall-witness-cpu"
        scheduling.start()
        let disk = Thread { [self] in watchDisk() }
        disk.name = "stall-witness-disk"
        disk.start()
    }

    /// A mark to measure stalls from: take it as the test begins.
    public func mark() -> Mark { Mark(witness: self, start: MonotonicTime.now()) }

    /// Stall time since a `mark()`.
    public struct Mark: Sendable {
        let witness: StallWitness
        public let start: Double

        /// Seconds of the time since the mark in which the machine stalled (the union of every
        /// stall seen, so a stall both witnesses saw counts once).
        public var seconds: Double { witness.stalledSeconds(from: start, to: MonotonicTime.now()) }

        /// What was seen, for a failing expectation's message.
        public var description: String {
            let seen = witness.stalls(from: start, to: MonotonicTime.now())
            guard !seen.isEmpty else { return "the machine did not stall" }
            let total = StallWitness.unionLength(seen, from: start, to: MonotonicTime.now())
            return "the machine stalled \(String(format: "%.2f", total)) s (" + seen.map {
                "\($0.kind) \(String(format: "%.2f", $0.end - $0.start)) s"
            }.joined(separator: ", ") + ")"
        }
    }

    /// The stalls that overlap `from...to` (CLOCK_MONOTONIC seconds).
    public func stalls(from: Double, to: Double) -> [Stall] {
        stalls.withLock { $0.filter { $0.end > from && $0.start < to } }
    }

    /// Seconds of `from...to` covered by stalls.
    public func stalledSeconds(from: Double, to: Double) -> Double {
        Self.unionLength(stalls(from: from, to: to), from: from, to: to)
    }

    /// The length of the union of `stalls` clipped to `from...to`.
    static func unionLength(_ stalls: [Stall], from: Double, to: Double) -> Double {
        var total = 0.0
        var reach = from
        for stall in stalls.sorted(by: { $0.start < $1.start }) {
            let start = max(stall.start, reach)
            let end = min(stall.end, to)
            if end > start { total += end - start }
            reach = max(reach, end)
        }
        return total
    }

    private func record(_ stall: Stall) {
        stalls.withLock { $0.append(stall) }
    }

    private func watchScheduling() {
        var target = MonotonicTime.now()
        while true {
            target += Self.wakeInterval
            var until = timespec(tv_sec: Int(target), tv_nsec: Int((target - target.rounded(.down)) * 1e9))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nil) == EINTR {}
            let woke = MonotonicTime.now()
            if woke - target > Self.lateWake {
                record(Stall(start: target, end: woke, kind: "no CPU"))
            }
            // After a stall, sleep from now on rather than run to catch up.
            if woke - target > Self.wakeInterval { target = woke }
        }
    }

    private func watchDisk() {
        let path = NSTemporaryDirectory() + "/activetask-stall-witness-\(getpid())"
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        unlink(path)
        let block = [UInt8](repeating: 0x5A, count: 4096)
        while true {
            let start = MonotonicTime.now()
            _ = block.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            _ = fdatasync(descriptor)
            let end = MonotonicTime.now()
            if end - start > Self.slowWrite {
                record(Stall(start: start, end: end, kind: "disk"))
            }
            usleep(UInt32(Self.writeInterval * 1e6))
        }
    }
}
