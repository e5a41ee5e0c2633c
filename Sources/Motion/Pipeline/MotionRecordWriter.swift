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
    /// CLOCK_BOOTTIME seconds when the recording started; `timestamp` counts from here.
    public let startUptime: Double
    private var stepPath: [UInt8] = []
    /// Records written (markers excluded).
    public private(set) var recordCount = 0

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

    /// Writes a step marker and makes `stepPath` the path of the records that follow.
    public func writeMarker(uptime: Double, stepPath: String, timestampDate: String) throws(SampleFileError) {
        switch output {
        case .json(let file):
            self.stepPath = MotionRecordFormat.jsonStepPath(stepPath)
            let encoded = self.stepPath
            try file.appendElement { buffer in
                MotionRecordFormat.appendJSONMarker(uptime: uptime, stepPath: encoded, timestampDate: timestampDate, to: &buffer)
            }
        case .csv(let writer):
            self.stepPath = MotionRecordFormat.csvStepPath(stepPath)
            MotionRecordFormat.appendCSVMarker(uptime: uptime, stepPath: self.stepPath, timestampDate: timestampDate, to: &writer.buffer)
            try writer.commitIfNeeded()
        }
    }

    /// Writes one record stamped with the current step path.
    @inline(__always)
    public func write(_ record: MotionRecord) throws(SampleFileError) {
        let timestamp = record.uptime - startUptime
        recordCount += 1
        switch output {
        case .json(let file):
            try file.appendElement { buffer in
                MotionRecordFormat.appendJSON(record, timestamp: timestamp, stepPath: stepPath, to: &buffer)
            }
        case .csv(let writer):
            MotionRecordFormat.appendCSV(record, timestamp: timestamp, stepPath: stepPath, to: &writer.buffer)
            try writer.commitIfNeeded()
        }
    }

    /// Flushes and fsyncs when their intervals have passed (call from a periodic tick so a
    /// quiet stream still reaches the disk).
    public func tick() throws(SampleFileError) {
        switch output {
        case .json(let file): try file.writer.maybeFlushByTime()
        case .csv(let writer): try writer.maybeFlushByTime()
        }
    }

    /// Finishes the file (closing bracket for JSON), fsyncs and closes it.
    public func close() throws(SampleFileError) {
        switch output {
        case .json(let file): try file.close()
        case .csv(let writer): try writer.close()
        }
    }
}
