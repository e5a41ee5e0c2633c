public import Foundation

/// One record of a `<identifier>_levels` file: a second of audio (docs/audio.md).
public struct AudioLevelRecord: Sendable, Hashable {
    public var uptime: Double
    public var timestamp: Double
    public var stepPath: String
    public var timeInterval: Double
    /// RMS level, dBFS (−160 for digital silence).
    public var average: Double
    /// Peak level, dBFS.
    public var peak: Double

    public init(uptime: Double, timestamp: Double, stepPath: String, timeInterval: Double, average: Double, peak: Double) {
        self.uptime = uptime
        self.timestamp = timestamp
        self.stepPath = stepPath
        self.timeInterval = timeInterval
        self.average = average
        self.peak = peak
    }

    /// Reads every record of a levels file (one record a second, so small enough to hold).
    public static func read(from url: URL) throws -> [AudioLevelRecord] {
        var records: [AudioLevelRecord] = []
        var splitter = JSONArrayElementSplitter()
        try ChunkedFileReader.forEachChunk(of: url) { chunk in
            splitter.consume(chunk) { element in
                var uptime = Double.nan, timestamp = Double.nan, interval = 1.0, average = Double.nan, peak = Double.nan
                var stepPath = ""
                FlatJSONObjectParser.parse(element) { key, value in
                    let name = String(decoding: key, as: UTF8.self)
                    switch value {
                    case .number(let number):
                        switch name {
                        case "uptime": uptime = number
                        case "timestamp": timestamp = number
                        case "timeInterval": interval = number
                        case "average": average = number
                        case "peak": peak = number
                        default: break
                        }
                    case .string(let text, let escaped) where name == "stepPath":
                        stepPath = FlatJSONObjectParser.string(text, escaped: escaped)
                    default: break
                    }
                }
                if average.isFinite, peak.isFinite {
                    records.append(AudioLevelRecord(
                        uptime: uptime, timestamp: timestamp, stepPath: stepPath, timeInterval: interval, average: average, peak: peak))
                }
            }
        }
        return records
    }
}
