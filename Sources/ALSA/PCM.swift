import Clocks
import Glibc
public import Logging

/// An open ALSA PCM (capture or playback), used from one thread at a time: the dedicated I/O
/// thread that reads or writes it. Opening it is how permission is checked.
///
/// Reads and writes block; call them only from a dedicated thread (BlockingCalls), never from the Swift concurrency
/// pool. An xrun or a suspend is recovered with `snd_pcm_recover` inside `read`/`write`, and the
/// length of the lost stretch is reported as a `StreamGap` on the next transfer.
public final class PCM: @unchecked Sendable {
    /// The name it was opened with.
    public let name: String
    public let direction: PCMDirection
    /// The configuration in force after `configure`.
    public private(set) var parameters: NegotiatedParameters?
    private var handle: LibASound.PCMHandle?
    private let statusBuffer: LibASound.StatusHandle
    private let logger: Logger
    /// Where the next frame should fall if nothing is lost (CLOCK_MONOTONIC seconds).
    private var expectedNextFrameTimestamp: Double?
    private var pendingGap: (reason: StreamGap.Reason, start: Double)?
    /// Recoveries since the last successful transfer; a stream that keeps breaking (its server
    /// or device is gone) is given up after `maximumConsecutiveRecoveries`.
    private var consecutiveRecoveries = 0
    private static let maximumConsecutiveRecoveries = 5

    /// Opens `name` (`default`, `hw:1,0`, `plughw:…`, `pulse`, an asoundrc PCM).
    /// Opening never waits for a busy device: it fails at once (EBUSY) and the error says so;
    /// transfers afterwards block.
    public init(name: String, direction: PCMDirection, logger: Logger) throws(ALSAError) {
        self.name = name
        self.direction = direction
        self.logger = logger
        statusBuffer = try LibASound.allocateStatus(device: name)
        do {
            let opened = try LibASound.open(name: name, direction: direction, nonBlocking: true)
            handle = opened
            try LibASound.setBlocking(opened, true, device: name)
        } catch {
            // deinit runs for a fully initialised object and frees the status and the handle.
            throw error
        }
    }

    deinit {
        if let handle { LibASound.close(handle) }
        LibASound.freeStatus(statusBuffer)
    }

    private func openHandle(_ operation: String) throws(ALSAError) -> LibASound.PCMHandle {
        guard let handle else {
            throw ALSAError(code: -EBADF, operation: operation, device: name,
                            reason: "The PCM was already closed")
        }
        return handle
    }

    /// Sets hardware and software parameters; returns the nearest values the device accepted.
    /// Timestamps are enabled on CLOCK_MONOTONIC.
    @discardableResult
    public func configure(
        _ hardware: HardwareParameters, software: SoftwareParameters = SoftwareParameters()
    ) throws(ALSAError) -> NegotiatedParameters {
        let handle = try openHandle("configure")
        let negotiated = try LibASound.configureHardware(handle, hardware, device: name)
        try LibASound.configureSoftware(handle, software, negotiated: negotiated, device: name)
        parameters = negotiated
        logger.debug("Configured ALSA PCM", metadata: [
            "device": "\(name)", "direction": "\(direction.rawValue)", "rate": "\(negotiated.rate)",
            "channels": "\(negotiated.channels)", "format": "\(negotiated.format.rawValue)",
            "periodFrames": "\(negotiated.periodFrames)", "bufferFrames": "\(negotiated.bufferFrames)",
        ])
        return negotiated
    }

    private func rate() -> Double { Double(parameters?.rate ?? 48_000) }

    /// Reads up to `frames` interleaved frames into `buffer` (blocking). Recovers from an
    /// overrun or a suspend and reports the gap with the frames that follow it.
    public func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws(ALSAError) -> TransferResult {
        let handle = try openHandle("read")
        while true {
            let count = LibASound.readFrames(handle, buffer, frames)
            if count == LibASound.brokenPipe || count == LibASound.suspendedPipe {
                try noteBreak(handle, code: count, reason: count == LibASound.brokenPipe ? .overrun : .suspended)
                continue
            }
            if count < 0 { throw LibASound.throwing(count, "read", name) }
            consecutiveRecoveries = 0
            let status = try LibASound.status(handle, into: statusBuffer, device: name)
            let rate = rate()
            let first = status.timestamp - Double(status.availableFrames + count) / rate
            let gap = takeGap(firstFrameTimestamp: first)
            expectedNextFrameTimestamp = first + Double(count) / rate
            return TransferResult(frames: count, firstFrameTimestamp: first, gap: gap)
        }
    }

    /// Writes `frames` interleaved frames from `buffer` (blocking until all are queued).
    /// Recovers from an underrun or a suspend and reports the gap.
    public func write(from buffer: UnsafeRawPointer, frames: Int) throws(ALSAError) -> TransferResult {
        let handle = try openHandle("write")
        let bytesPerFrame = parameters?.bytesPerFrame ?? 2
        var written = 0
        var firstHeard: Double?
        var isDelayReported = true
        var gap: StreamGap?
        while written < frames {
            let count = LibASound.writeFrames(handle, buffer + written * bytesPerFrame, frames - written)
            if count == LibASound.brokenPipe || count == LibASound.suspendedPipe {
                try noteBreak(handle, code: count, reason: count == LibASound.brokenPipe ? .underrun : .suspended)
                continue
            }
            if count < 0 { throw LibASound.throwing(count, "write", name) }
            consecutiveRecoveries = 0
            if firstHeard == nil {
                let status = try LibASound.status(handle, into: statusBuffer, device: name)
                // The delay counts the frames just queued; the first of them is heard after the rest.
                let heard = status.timestamp + Double(max(status.delayFrames - count, 0)) / rate()
                firstHeard = heard
                isDelayReported = status.delayFrames >= count
                if gap == nil { gap = takeGap(firstFrameTimestamp: heard) }
            }
            written += count
        }
        let first = firstHeard ?? RecordingClock.monotonic()
        expectedNextFrameTimestamp = first + Double(frames) / rate()
        return TransferResult(frames: written, firstFrameTimestamp: first, gap: gap, isDelayReported: isDelayReported && firstHeard != nil)
    }

    private func noteBreak(_ handle: LibASound.PCMHandle, code: Int, reason: StreamGap.Reason) throws(ALSAError) {
        consecutiveRecoveries += 1
        if consecutiveRecoveries > Self.maximumConsecutiveRecoveries {
            var error = LibASound.throwing(code, "keep the stream running", name)
            error.reason += "; it broke \(Self.maximumConsecutiveRecoveries) times in a row, so the device or its server is gone"
            throw error
        }
        let status = try? LibASound.status(handle, into: statusBuffer, device: name)
        let start = status.map { $0.triggerTimestamp > 0 ? $0.triggerTimestamp : $0.timestamp } ?? RecordingClock.monotonic()
        if pendingGap == nil { pendingGap = (reason, start) }
        logger.warning("ALSA stream broke; recovering", metadata: [
            "device": "\(name)", "reason": "\(reason.rawValue)",
        ])
        try LibASound.recover(handle, code: code, device: name)
    }

    private func takeGap(firstFrameTimestamp: Double) -> StreamGap? {
        guard let pending = pendingGap else { return nil }
        pendingGap = nil
        let expected = expectedNextFrameTimestamp ?? pending.start
        return StreamGap(reason: pending.reason, startTimestamp: pending.start,
                         seconds: max(0, firstFrameTimestamp - expected))
    }

    /// A status snapshot (state, CLOCK_MONOTONIC time, available frames, delay).
    public func status() throws(ALSAError) -> PCMStatus {
        try LibASound.status(try openHandle("read the status"), into: statusBuffer, device: name)
    }

    /// Starts the stream explicitly (capture starts by itself on the first read).
    public func start() throws(ALSAError) {
        try LibASound.start(try openHandle("start"), device: name)
    }

    /// Prepares a stopped stream for a new start.
    public func prepare() throws(ALSAError) {
        try LibASound.prepare(try openHandle("prepare"), device: name)
        expectedNextFrameTimestamp = nil
    }

    /// Plays out what is queued, then stops (playback).
    public func drain() throws(ALSAError) {
        try LibASound.drain(try openHandle("drain"), device: name)
    }

    /// Stops at once, discarding what is queued.
    public func drop() throws(ALSAError) {
        try LibASound.drop(try openHandle("stop"), device: name)
    }

    /// Closes the PCM; further calls throw.
    public func close() {
        if let handle { LibASound.close(handle) }
        handle = nil
    }
}
