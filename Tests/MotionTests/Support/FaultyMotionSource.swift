import BlockingCalls
import Foundation
import Glibc
import Motion

/// The real simulated IMU with one fault injected where a real device would show it: it is
/// unplugged after its first batch, it fails as it is being stopped, or its reader thread hangs
/// in a call when asked to stop.
final class FaultyMotionSource: MotionSource, @unchecked Sendable {
    enum Fault: Sendable {
        case unpluggedAfterFirstBatch
        case failsWhenStopped
        case hangsWhenStopped(NeverReadyPipe)
    }

    private let inner: any MotionSource
    private let fault: Fault
    private var sink: (any MotionSampleSink)?

    init(wrapping inner: any MotionSource, fault: Fault) {
        self.inner = inner
        self.fault = fault
    }

    var uri: String { inner.uri }
    var inventory: MotionInventory { inner.inventory }

    func start(sensors: Set<SensorKind>, frequency: Double, sink: any MotionSampleSink) throws(MotionSourceError) -> [SensorKind: Double] {
        self.sink = sink
        if case .unpluggedAfterFirstBatch = fault {
            return try inner.start(sensors: sensors, frequency: frequency, sink: UnpluggingSink(sink))
        }
        return try inner.start(sensors: sensors, frequency: frequency, sink: sink)
    }

    func stop(within deadline: Duration) async throws(MotionSourceError) {
        try await inner.stop(within: deadline)
        switch fault {
        case .unpluggedAfterFirstBatch:
            break
        case .failsWhenStopped:
            sink?.sourceFailed(MotionSourceError(.deviceGone, "The test IMU went away as it was stopped."))
        case .hangsWhenStopped(let pipe):
            // A reader stuck in a device call: a read that never returns until released.
            let stuck = DedicatedThread(name: "stuck-reader") { _ in pipe.blockingRead() }
            if !(await stuck.finished(within: deadline)) {
                throw MotionSourceError(.timedOut, "The test IMU's reader did not stop within \(deadline).")
            }
        }
    }
}

/// Forwards the first batch, then reports the device gone.
private final class UnpluggingSink: MotionSampleSink, @unchecked Sendable {
    private let sink: any MotionSampleSink
    private let lock = NSLock()
    private var batches = 0

    init(_ sink: any MotionSampleSink) { self.sink = sink }

    func receive(_ samples: UnsafeBufferPointer<MotionSample>) {
        let count = lock.withLock { batches += 1; return batches }
        if count == 1 { sink.receive(samples) }
        if count == 2 { sink.sourceFailed(MotionSourceError(.deviceGone, "The test IMU was unplugged while recording.")) }
    }

    func note(_ text: String) { sink.note(text) }
    func sourceFailed(_ error: MotionSourceError) { sink.sourceFailed(error) }
}

/// A pipe nobody writes to until `release()`: a read on it blocks like a hung device call.
final class NeverReadyPipe: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    func blockingRead() {
        var byte: UInt8 = 0
        _ = read(readEnd, &byte, 1)
    }

    func release() {
        var byte: UInt8 = 1
        for _ in 0..<16 { _ = write(writeEnd, &byte, 1) }
    }
}
