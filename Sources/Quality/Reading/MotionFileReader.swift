public import Foundation

/// Streams the records of a motion file (a JSON array, or CSV with SageResearch's columns)
/// one at a time in bounded memory; a ten-minute 1 kHz file is never held whole.
public enum MotionFileReader {
    /// Calls `body` with every record of the file at `url`, markers included, in file order.
    /// Elements that are not motion records are skipped.
    public static func forEachRecord(at url: URL, _ body: (MotionFileRecord) throws -> Void) throws {
        if url.pathExtension.lowercased() == "csv" {
            try forEachCSVRecord(at: url, body)
        } else {
            try forEachJSONRecord(at: url, body)
        }
    }

    private static func forEachJSONRecord(at url: URL, _ body: (MotionFileRecord) throws -> Void) throws {
        var splitter = JSONArrayElementSplitter()
        try ChunkedFileReader.forEachChunk(of: url) { chunk in
            try splitter.consume(chunk) { element in
                if let record = jsonRecord(element) { try body(record) }
            }
        }
    }

    static func jsonRecord(_ element: UnsafeBufferPointer<UInt8>) -> MotionFileRecord? {
        var record = MotionFileRecord()
        var isSample = false
        let parsed = FlatJSONObjectParser.parse(element) { key, value in
            switch (key.count, value) {
            case (6, .number(let number)) where key.elementsEqual("uptime".utf8): record.uptime = number
            case (9, .number(let number)) where key.elementsEqual("timestamp".utf8): record.timestamp = number
            case (1, .number(let number)):
                switch key[0] {
                case UInt8(ascii: "x"): record.x = number
                case UInt8(ascii: "y"): record.y = number
                case UInt8(ascii: "z"): record.z = number
                case UInt8(ascii: "w"): record.w = number
                default: break
                }
            case (8, .string(let text, let escaped)) where key.elementsEqual("stepPath".utf8):
                record.stepPath = FlatJSONObjectParser.string(text, escaped: escaped)
            case (10, .string(let text, _)) where key.elementsEqual("sensorType".utf8):
                record.sensorType = MotionSensorType.parse(text)
                isSample = true
            case (13, .string(let text, let escaped)) where key.elementsEqual("timestampDate".utf8):
                record.timestampDate = FlatJSONObjectParser.string(text, escaped: escaped)
            default: break
            }
        }
        guard parsed, record.uptime.isFinite else { return nil }
        // A sample of a type this reader does not know is skipped, not taken for a marker.
        if isSample && record.sensorType == nil { return nil }
        if !isSample && record.timestampDate == nil { return nil }
        return record
    }

    private static func forEachCSVRecord(at url: URL, _ body: (MotionFileRecord) throws -> Void) throws {
        var lines = LineSplitter()
        var columns: [String: Int]?
        try ChunkedFileReader.forEachChunk(of: url) { chunk in
            try lines.consume(chunk) { line in
                let fields = CSVFields.split(line)
                guard let header = columns else {
                    columns = Dictionary(fields.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
                    return
                }
                if let record = csvRecord(fields, columns: header) { try body(record) }
            }
        }
    }

    private static func csvRecord(_ fields: [String], columns: [String: Int]) -> MotionFileRecord? {
        func field(_ name: String) -> String? {
            guard let index = columns[name], index < fields.count, !fields[index].isEmpty else { return nil }
            return fields[index]
        }
        var record = MotionFileRecord()
        guard let uptime = field("uptime").flatMap(Double.init) else { return nil }
        record.uptime = uptime
        record.timestamp = field("timestamp").flatMap(Double.init) ?? .nan
        record.stepPath = field("stepPath") ?? ""
        if let type = field("sensorType") {
            guard let sensorType = MotionSensorType(rawValue: type) else { return nil }
            record.sensorType = sensorType
            record.x = field("x").flatMap(Double.init) ?? .nan
            record.y = field("y").flatMap(Double.init) ?? .nan
            record.z = field("z").flatMap(Double.init) ?? .nan
            record.w = field("w").flatMap(Double.init)
        } else {
            guard let date = field("timestampDate") else { return nil }
            record.timestampDate = date
        }
        return record
    }
}
