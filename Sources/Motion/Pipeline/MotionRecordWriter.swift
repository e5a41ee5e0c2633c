public import SampleFiles
public import SystemPackage

/// Writes motion records and step markers to a JSON array file or a CSV file, streaming with
/// bounded memory and fsync at the `SyncPolicy`'s interval. Used from one thread at a time.
public final class MotionRecordWriter {
    private enum Output {
        case json(JSONArrayFile)
        case csv(SampleFileWriter)
    }

    private let output: Output
    /// CLOCK_BOOTTIME seconds when the recording started; `timestamp` counts from here. A live
    /// recorder sets it after creating the file, just before its sensors start, and before the
    /// first marker or record.
    @exclusivity(unchecked) public var startUptime: Double
    /// The step changes so far, in time order: (CLOCK_BOOTTIME of the change, encoded path).
    ///
    /// This and the other per-record state are not checked for exclusive access at run time:
    /// the writer is used from one thread at a time and never re-entered while it writes.
    @exclusivity(unchecked) private var steps: [(uptime: Double, path: [UInt8])] = []
    /// Records written (markers excluded).
    @exclusivity(unchecked) public private(set) var recordCount = 0
    private var firstRecordsFlushed = false
    /// The JSON head (`appendJSONHead`) of the last record written and the sample time and step
    /// it was formatted for: the accelerometer and gyro records of one scan share it, so its
    /// two numbers are formatted once per scan (byte for byte the same text).
    @exclusivity(unchecked) private var head = SampleByteBuffer(capacity: 256)
    @exclusivity(unchecked) private var headUptime: UInt64 = 0
    @exclusivity(unchecked) private var headStep = Int.min

    /// Creates (truncates) the file at `path`.
    public init(path: FilePath, csv: Bool, startUptime: Double, policy: SyncPolicy = .default) throws(SampleFileError) {
        self.startUptime = startUptime
        if csv {
            let writer = try SampleFileWriter(path: path, policy: policy)
            writer.buffer.append(MotionRecordFormat.csvHeader)
            output = .csv(writer)
        } else {
            output = .json(try JSONArrayFile(path: path, policy: policy))
        }
    }

    /// True for CSV output.
    public var isCSV: Bool {
        if case .csv = output { return true }
        return false
    }

    /// Writes a step marker at `uptime` (its `timestamp` is seconds since the recorder started,
    /// as MobilePassiveData's `SampleRecorder.moveTo` writes it); records sampled from `uptime`
    /// on carry `stepPath`.
    public func writeMarker(uptime: Double, stepPath: String, timestampDate: String) throws(SampleFileError) {
        let timestamp = uptime - startUptime
        switch output {
        case .json(let file):
            let encoded = MotionRecordFormat.jsonStepPath(stepPath)
            steps.append((uptime, encoded))
            try file.appendElement { buffer in
                MotionRecordFormat.appendJSONMarker(
                    uptime: uptime, timestamp: timestamp, stepPath: encoded, timestampDate: timestampDate, to: &buffer)
            }
        case .csv(let writer):
            let encoded = MotionRecordFormat.csvStepPath(stepPath)
            steps.append((uptime, encoded))
            MotionRecordFormat.appendCSVMarker(
                uptime: uptime, timestamp: timestamp, stepPath: encoded, timestampDate: timestampDate, to: &writer.buffer)
            try writer.commitIfNeeded()
        }
    }

    /// The index in `steps` of the step showing at `uptime`: the last step change at or before
    /// it (the first step for samples taken before the recorder started); -1 before any marker.
    /// Samples arrive a buffer late, so the search starts at the newest change and rarely moves.
    @inline(__always)
    private func stepIndex(at uptime: Double) -> Int {
        var index = steps.count - 1
        while index > 0 && steps[index].uptime > uptime { index -= 1 }
        return index
    }

    /// The JSON step path of a record sampled before any step marker (`activetaskctl fuse` on a
    /// raw file that has none): an empty string, so the record stays valid JSON.
    private static let noStepJSON = MotionRecordFormat.jsonStepPath("")

    /// Writes one record stamped with the step that was showing at its own time.
    ///
    /// Only the buffer's fill is checked per record; the pipeline calls `tick()` once per batch
    /// for the time-based flush and fsync.
    @inline(__always)
    public func write(_ record: MotionRecord) throws(SampleFileError) {
        let step = stepIndex(at: record.uptime)
        recordCount += 1
        switch output {
        case .json(let file):
            if record.uptime.bitPattern != headUptime || step != headStep {
                head.removeAll()
                MotionRecordFormat.appendJSONHead(
                    uptime: record.uptime, timestamp: record.uptime - startUptime, stepPath: step >= 0 ? steps[step].path : Self.noStepJSON,
                    to: &head)
                headUptime = record.uptime.bitPattern
                headStep = step
            }
            try file.appendElement(flushingByTime: false) { buffer in
                head.withUnsafeBytes { buffer.append(contentsOf: $0) }
                MotionRecordFormat.appendJSONTail(record, to: &buffer)
            }
        case .csv(let writer):
            MotionRecordFormat.appendCSV(
                record, timestamp: record.uptime - startUptime, stepPath: step >= 0 ? steps[step].path : [], to: &writer.buffer)
            try writer.commitIfFull()
        }
    }

    /// Flushes and fsyncs when their intervals have passed (call from a periodic tick so a
    /// quiet stream still reaches the disk). The first records are handed to the kernel at the
    /// first tick that has any, so they are on disk one refill after the start (about 20 ms)
    /// rather than one flush interval (0.25 s): one extra write per recording.
    public func tick() throws(SampleFileError) {
        let writer: SampleFileWriter
        switch output {
        case .json(let file): writer = file.writer
        case .csv(let csvWriter): writer = csvWriter
        }
        if !firstRecordsFlushed, recordCount > 0 {
            firstRecordsFlushed = true
            try writer.flush()
        }
        try writer.maybeFlushByTime()
    }

    /// Finishes the file (closing bracket for JSON), fsyncs and closes it.
    public func close() throws(SampleFileError) {
        switch output {
        case .json(let file): try file.close()
        case .csv(let writer): try writer.close()
        }
    }
}
