import Foundation
import TestSupport

/// Reading a run directory the way an analysis script would (docs/session.md).
enum RunFiles {
    /// The file's JSON, or a thrown error naming the file.
    static func json(_ url: URL) throws -> Any {
        do { return try JSONSerialization.jsonObject(with: Data(contentsOf: url)) } catch {
            throw DaemonTestFailure("\(url.lastPathComponent) is not valid JSON: \(error)")
        }
    }

    static func object(_ url: URL) throws -> [String: Any] {
        guard let object = try json(url) as? [String: Any] else { throw DaemonTestFailure("\(url.lastPathComponent) is not an object") }
        return object
    }

    /// A motion file's step markers and one sensor's samples.
    struct Motion {
        var markers: [[String: Any]]
        var samples: [[String: Any]]

        init(_ url: URL, sensor: String = "accelerometer") throws {
            guard let records = try RunFiles.json(url) as? [[String: Any]] else { throw DaemonTestFailure("\(url.lastPathComponent) is not an array") }
            markers = records.filter { $0["sensorType"] == nil }
            samples = records.filter { $0["sensorType"] as? String == sensor }
        }

        var timestamps: [Double] { samples.compactMap { $0["timestamp"] as? Double } }
        /// Seconds from the first sample to the last.
        var span: Double { (timestamps.last ?? 0) - (timestamps.first ?? 0) }
        /// The longest time between two samples in a row.
        var longestGap: Double { zip(timestamps, timestamps.dropFirst()).map { $1 - $0 }.max() ?? .infinity }
        /// Whether the samples cover `seconds` of steps: the recorder starts with the step timer,
        /// so the first sample comes a little after it, later on a busy machine (the slack is
        /// `TestTiming`'s), and the last comes when the stop is asked for.
        func covers(seconds: Double) -> Bool {
            span > seconds - TestTiming.tolerance(0.3) && span < seconds + TestTiming.tolerance(0.6)
        }
        /// Whether the sample count is within 2 % (and one sample) of span × frequency.
        func countFits(frequency: Double) -> Bool {
            abs(Double(samples.count) - span * frequency) <= 0.02 * span * frequency + 1
        }
    }

    /// Whether `url` is a whole WAV file: RIFF/WAVE, the RIFF size matching the file, and every
    /// chunk (the data chunk included) inside the file with its stated size.
    static func isCompleteWAV(_ url: URL) -> Bool {
        guard let data = try? Data(contentsOf: url), data.count >= 44 else { return false }
        func word(_ offset: Int) -> Int { data[offset..<offset + 4].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) } }
        guard data.prefix(4) == Data("RIFF".utf8), data[8..<12] == Data("WAVE".utf8), word(4) == data.count - 8 else { return false }
        var offset = 12
        var sawData = false
        while offset + 8 <= data.count {
            let size = word(offset + 4)
            if data[offset..<offset + 4] == Data("data".utf8) { sawData = true }
            offset += 8 + size + (size & 1)
        }
        return sawData && offset == data.count
    }

    /// The last line a command printed, as a JSON object (`run --auto --json`'s summary).
    static func lastLine(of text: String) throws -> [String: Any] {
        guard let last = text.split(separator: "\n").last,
              let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any] else {
            throw DaemonTestFailure("the output does not end with a JSON object: \(text)")
        }
        return object
    }

    /// The run's manifest (`run.json`): status and finish reason.
    static func manifest(of directory: URL) throws -> (status: String?, finishReason: String?) {
        let manifest = try object(directory.appendingPathComponent("run.json"))
        return (manifest["status"] as? String, manifest["finishReason"] as? String)
    }
}
