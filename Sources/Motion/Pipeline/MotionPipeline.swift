import AsyncActions
import Foundation
public import SampleFiles

/// The data path of one recording, fed by a source's reader threads: converted raw samples →
/// (optional fusion stage) → record writer. Raw types that were asked for are written as they
/// come; the fusion stage, when there is one, sees every raw sample and its fused records are
/// written too. Also watches each sensor's timestamps for gaps and collects the notes of the
/// file result. Thread-safe: one lock per batch.
public final class MotionPipeline: MotionSampleSink, @unchecked Sendable {
    /// How a recording ended early.
    public enum Failure: Sendable {
        case source(MotionSourceError)
        case output(SampleFileError)
    }

    private let lock = NSLock()
    private let writer: MotionRecordWriter
    /// Indexed by `SensorKind.index`: arrays, not sets or dictionaries, so the per-sample path
    /// neither hashes nor allocates.
    private let writesRaw: [Bool]
    private let fusion: (any MotionFusionStage)?
    /// Not checked for exclusive access at run time (like the writer's per-record state): only
    /// touched under `lock`.
    @exclusivity(unchecked) private var gapDetectors: [GapDetector?]
    private var sourceNotes: [String] = []
    private var failure: Failure?
    private var isClosed = false
    private let failureSignal = RecordingFailureSignal<Failure>()
    private let warn: (@Sendable (String) -> Void)?
    private let progress: (@Sendable (_ recordsWritten: Int, _ achievedRate: Double) -> Void)?
    @exclusivity(unchecked) private var progressWindow = ProgressWindow()
    /// Step changes announced by `mark` and not yet written, and the newest sample time already
    /// handed to the writer. Guarded by `stepLock`, which is never held across I/O, so a step
    /// change never waits for a reader thread's write or fsync.
    private let stepLock = NSLock()
    private var announcedMarkers: [AnnouncedMarker] = []
    private var stampedThrough = -Double.infinity
    private var lastMarkerUptime = -Double.infinity

    private struct AnnouncedMarker {
        var uptime: Double
        var stepPath: String
        var timestampDate: String
    }

    /// - Parameters:
    ///   - rawTypes: the raw sensors whose samples are written as they come.
    ///   - frequencies: each sensor's sampling frequency, for gap detection.
    ///   - fusion: the stage producing the fused types, if any were asked for.
    ///   - warn: told about each of the first gaps as it is found (the recorder turns these into
    ///     `.warning` events); called on a reader thread.
    ///   - progress: told once per second of sample time the records written so far and the
    ///     rate each sensor achieved over that second (Hz); called on a reader thread.
    public init(
        writer: MotionRecordWriter, rawTypes: Set<SensorKind>, frequencies: [SensorKind: Double], fusion: (any MotionFusionStage)?,
        warn: (@Sendable (String) -> Void)? = nil,
        progress: (@Sendable (_ recordsWritten: Int, _ achievedRate: Double) -> Void)? = nil
    ) {
        self.writer = writer
        self.warn = warn
        self.progress = progress
        progressWindow.sensorCount = max(1, frequencies.count)
        writesRaw = SensorKind.allCases.map { rawTypes.contains($0) }
        self.fusion = fusion
        gapDetectors = Self.detectors(frequencies)
    }

    /// One detector per sensor with a frequency; a detector in `kept` already at that rate is
    /// reused with what it saw.
    private static func detectors(_ frequencies: [SensorKind: Double], keeping kept: [GapDetector?] = []) -> [GapDetector?] {
        SensorKind.allCases.map { sensor in
            guard let frequency = frequencies[sensor] else { return nil }
            if sensor.index < kept.count, let detector = kept[sensor.index], detector.period == 1 / frequency { return detector }
            return GapDetector(frequency: frequency)
        }
    }

    /// Replaces the expected frequencies once the source reports what it runs at. The readers
    /// may already have delivered samples (a device's buffer can be full at once): a detector
    /// whose rate is unchanged keeps what it saw; one whose rate changed starts again, since its
    /// gaps were measured against the wrong period.
    public func setFrequencies(_ frequencies: [SensorKind: Double]) {
        lock.lock()
        gapDetectors = Self.detectors(frequencies, keeping: gapDetectors)
        progressWindow.sensorCount = max(1, frequencies.count)
        lock.unlock()
    }

    public func receive(_ samples: UnsafeBufferPointer<MotionSample>) {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed, failure == nil else { return }
        do throws(SampleFileError) {
            try writeAnnouncedMarkers(before: samples)
            for sample in samples {
                let index = sample.sensor.index
                if let gap = gapDetectors[index]?.next(sample.uptime), let warn,
                    gapDetectors[index]!.gapCount <= GapDetector.keptGaps
                {
                    warn(Self.gapWarning(sample.sensor, gap))
                }
                if writesRaw[index] {
                    try writer.write(MotionRecord(sample))
                }
                if let fusion {
                    try writeFused { emit in fusion.consume(sample, emit: emit) }
                }
            }
            try writer.tick()
            if let progress, let last = samples.last,
                let rate = progressWindow.add(samples: samples.count, at: last.uptime)
            {
                progress(writer.recordCount, rate)
            }
        } catch {
            fail(.output(error))
        }
    }

    public func note(_ text: String) {
        lock.lock()
        sourceNotes.append(text)
        lock.unlock()
    }

    public func sourceFailed(_ error: MotionSourceError) {
        lock.lock()
        defer { lock.unlock() }
        fail(.source(error))
    }

    /// Announces a step change at `uptime`: the marker is written, and records sampled from its
    /// time on carry `stepPath`, when the next batch is written (or at `close`).
    ///
    /// Samples reach the pipeline a buffer late, so a batch holding samples taken after the step
    /// change may already have been stamped when the announcement arrives. Then the marker moves
    /// to just after the newest sample stamped, so that every sample still carries the step that
    /// its marker says was showing (docs/motion.md). Never waits for the disk.
    ///
    /// - Parameter timestampDate: formats the marker's wall-clock time from its final uptime.
    /// - Returns: the uptime the marker carries.
    @discardableResult
    public func mark(uptime: Double, stepPath: String, timestampDate: (Double) -> String) -> Double {
        stepLock.lock()
        defer { stepLock.unlock() }
        let markerUptime = max(uptime, stampedThrough.nextUp, lastMarkerUptime)
        lastMarkerUptime = markerUptime
        announcedMarkers.append(AnnouncedMarker(uptime: markerUptime, stepPath: stepPath, timestampDate: timestampDate(markerUptime)))
        return markerUptime
    }

    /// Writes the markers announced so far and records that `samples`, about to be written, were
    /// stamped without any marker announced later. Called under `lock` by the writing thread.
    private func writeAnnouncedMarkers(before samples: UnsafeBufferPointer<MotionSample>) throws(SampleFileError) {
        var newest = -Double.infinity
        for sample in samples where sample.uptime > newest { newest = sample.uptime }
        var markers: [AnnouncedMarker] = []
        stepLock.lock()
        // Swapped out rather than copied, so the usual empty case neither copies nor allocates.
        swap(&markers, &announcedMarkers)
        if newest > stampedThrough { stampedThrough = newest }
        stepLock.unlock()
        for marker in markers {
            try writer.writeMarker(uptime: marker.uptime, stepPath: marker.stepPath, timestampDate: marker.timestampDate)
        }
    }

    /// Closes the file (after the source has stopped) and returns the notes for the file result.
    public func close() throws(SampleFileError) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        if !isClosed {
            isClosed = true
            // Markers announced since the last batch and the records the fusion stage still
            // holds for time alignment belong in the file too.
            let flushed = Result { () throws(SampleFileError) in
                guard failure == nil else { return }
                try writeAnnouncedMarkers(before: UnsafeBufferPointer(start: nil, count: 0))
                if let fusion { try writeFused { emit in fusion.finish(emit: emit) } }
            }
            try writer.close()
            try flushed.get()
            failureSignal.close()
        }
        return notesLocked()
    }

    /// Closes the file without caring for errors (cancel and failure paths).
    public func abandon() {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        isClosed = true
        try? writer.close()
        failureSignal.close()
    }

    /// Waits until the recording fails (returns the failure) or the pipeline is closed or the
    /// waiting task is cancelled (nil).
    public func waitForFailure() async -> Failure? {
        await failureSignal.wait()
    }

    /// The failure that ended the recording, if any.
    public var recordedFailure: Failure? {
        lock.lock()
        defer { lock.unlock() }
        return failure
    }

    /// The notes so far (gaps and source facts).
    public var notes: [String] {
        lock.lock()
        defer { lock.unlock() }
        return notesLocked()
    }

    /// Records written so far.
    public var recordCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return writer.recordCount
    }

    /// Writes the records a fusion stage emits from `produce`; the first write error stops
    /// the writing and is thrown.
    private func writeFused(_ produce: ((MotionRecord) -> Void) -> Void) throws(SampleFileError) {
        var writeError: SampleFileError?
        produce { record in
            guard writeError == nil else { return }
            do throws(SampleFileError) { try writer.write(record) } catch { writeError = error }
        }
        if let writeError { throw writeError }
    }

    static func gapWarning(_ sensor: SensorKind, _ gap: GapDetector.Gap) -> String {
        "\(sensor.rawValue): \(String(format: "%.3f", gap.duration)) s without samples after uptime \(String(format: "%.6f", gap.after)) (buffer overrun); about \(gap.missingSamples) sample(s) missing."
    }

    /// Counts raw samples per second of sample time for the progress figures.
    private struct ProgressWindow {
        var sensorCount = 1
        var windowStart: Double?
        var samples = 0

        /// Adds `samples` ending at `uptime`; returns the per-sensor rate (Hz) when a second
        /// has passed since the window started.
        mutating func add(samples count: Int, at uptime: Double) -> Double? {
            guard let start = windowStart else {
                windowStart = uptime
                return nil
            }
            samples += count
            let elapsed = uptime - start
            guard elapsed >= 1 else { return nil }
            let rate = Double(samples) / Double(sensorCount) / elapsed
            windowStart = uptime
            samples = 0
            return rate
        }
    }

    private func fail(_ failure: Failure) {
        guard self.failure == nil else { return }
        self.failure = failure
        failureSignal.report(failure)
    }

    private func notesLocked() -> [String] {
        var notes = sourceNotes
        for sensor in SensorKind.allCases {
            guard let detector = gapDetectors[sensor.index], detector.gapCount > 0 else { continue }
            let examples = detector.firstGaps.map { gap in
                "\(String(format: "%.3f", gap.duration)) s after uptime \(String(format: "%.6f", gap.after))"
            }.joined(separator: ", ")
            notes.append(
                "\(sensor.rawValue): \(detector.gapCount) gap(s) in the sample timestamps (buffer overrun), about \(detector.missingSamples) sample(s) missing; first: \(examples).")
        }
        return notes
    }
}
