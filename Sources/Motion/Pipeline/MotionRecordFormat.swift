public import SampleFiles

/// How motion records and step markers are written, key for key as SageResearch writes them:
/// JSON objects `{"uptime", "timestamp", "stepPath", "sensorType", "x", "y", "z"}` (plus `w`,
/// `eventAccuracy`, `referenceCoordinate`, `heading` when set), markers `{"uptime",
/// "timestamp", "stepPath", "timestampDate"}`; CSV rows in the column order of
/// `csvHeader`, empty where a record has no value.
public enum MotionRecordFormat {
    /// SageResearch's `MotionRecord` CSV columns.
    public static let csvHeader: StaticString =
        "uptime,timestamp,stepPath,timestampDate,sensorType,eventAccuracy,referenceCoordinate,heading,x,y,z,w\n"

    /// The step path as a JSON string literal (quoted, escaped), computed once per step change.
    public static func jsonStepPath(_ stepPath: String) -> [UInt8] {
        var buffer = SampleByteBuffer(capacity: stepPath.utf8.count + 8)
        buffer.appendJSONString(stepPath)
        return buffer.bytes
    }

    /// The step path as a CSV field (quoted when it holds a comma, quote or line break).
    public static func csvStepPath(_ stepPath: String) -> [UInt8] {
        let needsQuotes = stepPath.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else { return Array(stepPath.utf8) }
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for byte in stepPath.utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }

    /// Appends a record as a JSON object: `appendJSONHead` then `appendJSONTail`.
    @inline(__always)
    public static func appendJSON(
        _ record: MotionRecord, timestamp: Double, stepPath: [UInt8], to buffer: inout SampleByteBuffer
    ) {
        appendJSONHead(uptime: record.uptime, timestamp: timestamp, stepPath: stepPath, to: &buffer)
        appendJSONTail(record, to: &buffer)
    }

    /// The start of a record's JSON object, up to the opening quote of its `sensorType`: the
    /// same for every record of one sample time and step, so a writer can format it once per
    /// scan and copy it into the accelerometer and gyro records.
    @inline(__always)
    public static func appendJSONHead(uptime: Double, timestamp: Double, stepPath: [UInt8], to buffer: inout SampleByteBuffer) {
        buffer.append("{\"uptime\":")
        buffer.append(double: uptime)
        buffer.append(",\"timestamp\":")
        buffer.append(double: timestamp)
        buffer.append(",\"stepPath\":")
        buffer.append(contentsOf: stepPath)
        buffer.append(",\"sensorType\":\"")
    }

    /// The rest of a record's JSON object after `appendJSONHead`: the sensor type and values.
    @inline(__always)
    public static func appendJSONTail(_ record: MotionRecord, to buffer: inout SampleByteBuffer) {
        appendSensorType(record, to: &buffer)
        buffer.append("\"")
        if let coordinate = record.referenceCoordinate {
            buffer.append(",\"referenceCoordinate\":")
            buffer.append(coordinate == .zUp ? "\"Z-Up\"" : "\"North-West-Up\"")
        }
        if let heading = record.heading {
            buffer.append(",\"heading\":")
            buffer.append(double: heading)
        }
        if let accuracy = record.eventAccuracy {
            buffer.append(",\"eventAccuracy\":")
            buffer.append(integer: accuracy)
        }
        buffer.append(",\"x\":")
        buffer.append(double: record.x)
        buffer.append(",\"y\":")
        buffer.append(double: record.y)
        buffer.append(",\"z\":")
        buffer.append(double: record.z)
        if let w = record.w {
            buffer.append(",\"w\":")
            buffer.append(double: w)
        }
        buffer.append("}")
    }

    /// Appends a step marker as a JSON object.
    public static func appendJSONMarker(
        uptime: Double, timestamp: Double, stepPath: [UInt8], timestampDate: String, to buffer: inout SampleByteBuffer
    ) {
        buffer.append("{\"uptime\":")
        buffer.append(double: uptime)
        buffer.append(",\"timestamp\":")
        buffer.append(double: timestamp)
        buffer.append(",\"stepPath\":")
        buffer.append(contentsOf: stepPath)
        buffer.append(",\"timestampDate\":")
        buffer.appendJSONString(timestampDate)
        buffer.append("}")
    }

    /// Appends a record as a CSV row.
    @inline(__always)
    public static func appendCSV(_ record: MotionRecord, timestamp: Double, stepPath: [UInt8], to buffer: inout SampleByteBuffer) {
        buffer.append(double: record.uptime)
        buffer.append(",")
        buffer.append(double: timestamp)
        buffer.append(",")
        buffer.append(contentsOf: stepPath)
        buffer.append(",,")
        appendSensorType(record, to: &buffer)
        buffer.append(",")
        if let accuracy = record.eventAccuracy { buffer.append(integer: accuracy) }
        buffer.append(",")
        if let coordinate = record.referenceCoordinate {
            buffer.append(coordinate == .zUp ? "Z-Up" : "North-West-Up")
        }
        buffer.append(",")
        if let heading = record.heading { buffer.append(double: heading) }
        buffer.append(",")
        buffer.append(double: record.x)
        buffer.append(",")
        buffer.append(double: record.y)
        buffer.append(",")
        buffer.append(double: record.z)
        buffer.append(",")
        if let w = record.w { buffer.append(double: w) }
        buffer.append("\n")
    }

    /// Appends a step marker as a CSV row.
    public static func appendCSVMarker(
        uptime: Double, timestamp: Double, stepPath: [UInt8], timestampDate: String, to buffer: inout SampleByteBuffer
    ) {
        buffer.append(double: uptime)
        buffer.append(",")
        buffer.append(double: timestamp)
        buffer.append(",")
        buffer.append(contentsOf: stepPath)
        buffer.append(",")
        buffer.append(utf8: timestampDate)
        buffer.append(",,,,,,,,\n")
    }

    @inline(__always)
    private static func appendSensorType(_ record: MotionRecord, to buffer: inout SampleByteBuffer) {
        switch record.sensorType {
        case .accelerometer: buffer.append("accelerometer")
        case .gyro: buffer.append("gyro")
        case .magnetometer: buffer.append("magnetometer")
        case .gravity: buffer.append("gravity")
        case .userAcceleration: buffer.append("userAcceleration")
        case .attitude: buffer.append("attitude")
        case .rotationRate: buffer.append("rotationRate")
        case .magneticField: buffer.append("magneticField")
        }
    }
}
