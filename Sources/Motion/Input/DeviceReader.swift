import Clocks
import BlockingCalls
import Foundation
import IIO
import Logging
import SystemCalls

/// Reads one IIO device's buffer on a dedicated thread: refill, decode and convert every scan,
/// hand the batch to the sink. Refill time-outs are retried (checking the device is still
/// there); any other refill error, a vanished device or a long silence ends the loop with a
/// failure on the sink.
final class DeviceReader: @unchecked Sendable {
    /// Everything the read loop needs, fixed before the thread starts.
    struct Layout {
        var converter: ScanBatchConverter
        /// A channel whose attribute shows that the device is still there.
        var probeChannel: IIOChannel?
        /// When set, refills do not wait for a full buffer: each takes what has arrived (up to
        /// the buffer's size), and when that was less than a full buffer the reader sleeps this
        /// many seconds before the next. Samples then reach the sink within about this interval
        /// whatever the buffer's size, a large buffer lets a reader that has fallen behind catch
        /// up in few refills, and a stop reads what had arrived instead of dropping a partly
        /// filled buffer. Nil: blocking refills of whole buffers.
        var readInterval: Double? = nil
    }

    private let device: IIODevice
    private let buffer: IIOBuffer
    private let layout: Layout
    private let sink: any MotionSampleSink
    private let stallTimeout: Double
    private let logger: Logger
    private let stopLock = NSLock()
    private var stopRequested = false
    private var thread: DedicatedThread?

    init(device: IIODevice, buffer: IIOBuffer, layout: Layout, sink: any MotionSampleSink, stallTimeout: Double, logger: Logger) {
        self.device = device
        self.buffer = buffer
        self.layout = layout
        self.sink = sink
        self.stallTimeout = stallTimeout
        self.logger = logger
    }

    /// The IIO device id (`iio:device0`).
    var deviceID: String { device.id }

    func start() {
        thread = DedicatedThread(name: "iio-\(device.id)") { [self] heartbeat in run(heartbeat) }
    }

    /// Asks the loop to end and wakes a blocked refill; then waits for the thread, at most
    /// `deadline`. Returns false when the thread is still stuck in a call.
    func stop(within deadline: Duration) async -> Bool {
        stopLock.withLock { stopRequested = true }
        // A paced reader only sleeps (at most one read interval) and must still read what has
        // arrived; a blocked refill is woken.
        if layout.readInterval == nil { buffer.cancel() }
        return await thread?.finished(within: deadline) ?? true
    }

    private var isStopping: Bool {
        stopLock.lock()
        defer { stopLock.unlock() }
        return stopRequested
    }

    private func run(_ heartbeat: ThreadHeartbeat) {
        let deviceID = device.id
        var samples: [MotionSample] = []
        // One more scan than a buffer holds: a scan completed from a cut one (ScanStitcher).
        samples.reserveCapacity((buffer.scans + 1) * layout.converter.conversions.count)
        var converter = layout.converter
        var stitcher = ScanStitcher(step: buffer.scanStep)
        var lastData = RecordingClock.uptime()
        var lastCheck = lastData
        // Paced reads (see Layout) need non-blocking refills; without them the reader waits for
        // full buffers.
        var readInterval = layout.readInterval
        if readInterval != nil {
            do {
                try buffer.setBlocking(false)
            } catch {
                logger.debug("Non-blocking refills unavailable", metadata: ["device": "\(deviceID)", "error": "\(error)"])
                readInterval = nil
            }
        }
        let fullBuffer = buffer.scans.saturatingMultiply(buffer.scanStep)
        var hasData = false
        // Scans against time (docs/motion.md, "Lifecycle and failures"): by the device's own
        // timestamps when it has a timestamp channel (a stream replayed faster or later than real
        // time is still dated truly), the scans an overrun lost (a step of more than
        // `lostScanSteps` periods) counting as delivered; else by the clock of the reads, from
        // the first read that found less than a full buffer (what piled up before the first read
        // is a backlog, not a rate; a blocking reader, or one that never catches up within
        // `maximumBacklogRefills`, starts at once).
        let timestamped = converter.timestampOffset != nil
        let samplesPerScan = max(converter.conversions.count, 1)
        let period = 1 / converter.frequency
        var rateCheck = DeliveryRateCheck(nominalRate: converter.frequency, slackFrames: buffer.scans.saturatingMultiply(2))
        var lastStamp: Double?
        var clockStarted = false
        var backlogRefills = 0
        var wrongRate: MotionSourceError?
        while !isStopping {
            let bytes: Int
            heartbeat.beat()
            do {
                bytes = try buffer.refill()
            } catch {
                if isStopping { break }
                if error.isTimeout {
                    if let interval = readInterval {
                        // Nothing has arrived yet: the device is probed about once a second of
                        // silence, as a blocking refill's time-out would. Before the first
                        // samples the reader looks four times as often, so they reach the file
                        // soon after the start.
                        Syscalls.sleep(seconds: interval * (hasData ? 1 : 0.25))
                        let now = RecordingClock.uptime()
                        guard now - lastCheck >= 1 else { continue }
                        lastCheck = now
                    }
                    if let failure = checkStillThere(since: lastData) {
                        sink.sourceFailed(failure)
                        return
                    }
                    continue
                }
                let kind: MotionSourceError.Kind = .deviceGone
                logger.error("IIO refill failed", metadata: ["device": "\(deviceID)", "error": "\(error)"])
                sink.sourceFailed(
                    MotionSourceError(
                        kind, "The motion sensor \(deviceID) failed while recording: \(error.reason). \(error.advice)",
                        underlying: error))
                return
            }
            if bytes == 0 {
                // Nothing arrived (a stream that ended): handled like a time-out, never a spin.
                if let failure = checkStillThere(since: lastData) {
                    sink.sourceFailed(failure)
                    return
                }
                Syscalls.sleep(seconds: 0.01)
                continue
            }
            lastData = deliver(bytes: bytes)
            lastCheck = lastData
            hasData = true
            if let wrongRate {
                logger.error("IIO device does not keep time", metadata: ["device": "\(deviceID)", "error": "\(wrongRate.message)"])
                sink.sourceFailed(wrongRate)
                return
            }
            // Caught up with the device (less than a full buffer was there): wait for more.
            if let interval = readInterval, bytes < fullBuffer {
                Syscalls.sleep(seconds: interval)
            }
        }
        // Stopped: what has arrived since the last read is taken too, so nothing is lost at
        // the end.
        if readInterval != nil {
            for _ in 0..<Self.maximumDrainRefills {
                guard let bytes = try? buffer.refill(), bytes > 0 else { break }
                _ = deliver(bytes: bytes)
            }
        }

        /// Converts the scans of a refill of `bytes` bytes and hands them to the sink; returns
        /// the time they were read.
        func deliver(bytes: Int) -> Double {
            let readTime = RecordingClock.uptime()
            guard let start = buffer.scanStart else { return readTime }
            let step = stitcher.step
            samples.removeAll(keepingCapacity: true)
            stitcher.forEachRun(start: start, bytes: bytes) { scans, count in
                converter.convert(start: scans, scans: count, step: step, readTime: readTime, into: &samples)
            }
            let scans = samples.count / samplesPerScan
            if !timestamped, !clockStarted {
                if readInterval == nil || bytes < fullBuffer || backlogRefills >= Self.maximumBacklogRefills {
                    clockStarted = true
                    rateCheck.begin(at: readTime)
                } else {
                    backlogRefills += 1
                }
            } else if scans > 0, wrongRate == nil {
                var lost = 0
                if timestamped {
                    for index in stride(from: 0, to: samples.count, by: samplesPerScan) {
                        let stamp = samples[index].uptime
                        if let lastStamp, stamp < lastStamp {
                            // The device's clock stepped back (CLOCK_REALTIME set): judge anew
                            // from here rather than take the lost time for speed.
                            rateCheck = DeliveryRateCheck(nominalRate: converter.frequency, slackFrames: rateCheck.slackFrames)
                            rateCheck.begin(at: stamp)
                        } else if let lastStamp, stamp - lastStamp > Self.lostScanSteps * period {
                            lost = lost.saturatingAdd(Int(saturating: ((stamp - lastStamp) / period).rounded()) - 1)
                        }
                        lastStamp = stamp
                    }
                    rateCheck.begin(at: samples[0].uptime)
                }
                let verdict = rateCheck.delivered(
                    scans.saturatingAdd(lost), at: timestamped ? samples[samples.count - 1].uptime : readTime)
                if let message = verdict.failure(device: "The motion sensor \(deviceID)", unit: "scans") {
                    // What it delivered so far is kept; nothing more is read.
                    wrongRate = MotionSourceError(.wrongRate, message)
                }
            }
            samples.withUnsafeBufferPointer { sink.receive($0) }
            return readTime
        }
    }

    /// A step between two timestamps longer than this many sampling periods is an overrun: the
    /// scans it lost count as delivered for the rate check. Shorter steps are the device's pace
    /// (a device at a quarter of its rate is slow, not full of gaps).
    static let lostScanSteps = 5.0

    /// Full refills a reader without timestamps may take to catch up with a backlog before the
    /// clock of its reads starts counting scans (about as many buffers as a kernel keeps).
    static let maximumBacklogRefills = 16

    /// Refills read at most after a stop (a device still streaming fast cannot
    /// keep the reader forever).
    static let maximumDrainRefills = 64

    /// Reads an attribute the device is known to have (over iiod only listed attributes can be
    /// read): fails with ENOENT/ENODEV once the device is gone.
    private func probe() throws(IIOError) {
        if let name = device.attributeNames.first {
            _ = try device.readAttribute(name)
        } else if let channel = layout.probeChannel, let name = channel.attributeNames.first {
            _ = try channel.readAttribute(name)
        }
    }

    /// After a refill time-out: fails when the device has gone from the context or has been
    /// silent longer than the stall time-out.
    private func checkStillThere(since lastData: Double) -> MotionSourceError? {
        do {
            try probe()
        } catch {
            if error.isDeviceGone {
                return MotionSourceError(
                    .deviceGone,
                    "The motion sensor \(device.id) disappeared while recording (\(error.reason)). Reconnect it and start the task again.",
                    underlying: error)
            }
        }
        let silence = RecordingClock.uptime() - lastData
        if silence > stallTimeout {
            return MotionSourceError(
                .stalled,
                "The motion sensor \(device.id) sent no samples for \(Int(silence)) seconds. Check its trigger and sampling frequency, then start again.")
        }
        return nil
    }
}
