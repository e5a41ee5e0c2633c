import Foundation
import Motion
import TaskModel

/// A raw motion file read back: the accelerometer, gyro and magnetometer records and the step
/// markers of a SageResearch motion file (JSON array or CSV with the recorder's columns), in
/// file order. Records of other (fused) types are skipped and counted.
struct RawMotionFile {
    enum Entry {
        case sample(MotionSample)
        case marker(uptime: Double, stepPath: String, timestampDate: String)
    }

    var entries: [Entry] = []
    /// The uptime the file's `timestamp` counts from (first record's uptime − timestamp).
    var startUptime: Double?
    /// Records of types other than accelerometer, gyro and magnetometer.
    var skippedCount = 0

    /// Errors with a sentence saying what is wrong and where.
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads `path`: CSV when its first line is a header with `sensorType`, else a JSON array.
    init(path: String) throws(ReadError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ReadError(description: "cannot read \(path): \(error.localizedDescription)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.first == "[" {
            try readJSON(data, path: path)
        } else {
            try readCSV(text, path: path)
        }
        guard entries.contains(where: { if case .sample(let s) = $0 { s.sensor == .accelerometer } else { false } }),
            entries.contains(where: { if case .sample(let s) = $0 { s.sensor == .gyroscope } else { false } })
        else {
            throw ReadError(
                description: "\(path) has no accelerometer and gyro records to fuse; record both "
                    + "(activetaskctl record --types accelerometer,gyro[,magnetometer]).")
        }
    }

    private mutating func readJSON(_ data: Data, path: String) throws(ReadError) {
        let objects: [[String: Any]]
        do {
            guard let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
                throw ReadError(description: "\(path) is not a JSON array of motion records.")
            }
            objects = array
        } catch let error as ReadError {
            throw error
        } catch {
            throw ReadError(description: "\(path) is not valid JSON: \(error.localizedDescription)")
        }
        for (index, object) in objects.enumerated() {
            let number = { (key: String) in (object[key] as? NSNumber)?.doubleValue }
            guard let uptime = number("uptime") else {
                throw ReadError(description: "\(path): element \(index) has no numeric \"uptime\".")
            }
            try add(
                uptime: uptime, timestamp: number("timestamp"), stepPath: object["stepPath"] as? String ?? "",
                timestampDate: object["timestampDate"] as? String, sensorType: object["sensorType"] as? String,
                x: number("x"), y: number("y"), z: number("z"), place: "\(path): element \(index)")
        }
    }

    private mutating func readCSV(_ text: String, path: String) throws(ReadError) {
        var lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" }.makeIterator()
        guard let header = lines.next() else { throw ReadError(description: "\(path) is empty.") }
        let names = Self.fields(of: header)
        func column(_ name: String) -> Int? { names.firstIndex(of: name) }
        guard let uptimeColumn = column("uptime"), let typeColumn = column("sensorType") else {
            throw ReadError(
                description: "\(path) is neither a JSON array nor a CSV motion file with "
                    + "\"uptime\" and \"sensorType\" columns (\(MotionRecordFormat.csvHeader)).")
        }
        let columns = (
            timestamp: column("timestamp"), stepPath: column("stepPath"), date: column("timestampDate"),
            x: column("x"), y: column("y"), z: column("z"))
        var lineNumber = 1
        while let line = lines.next() {
            lineNumber += 1
            let fields = Self.fields(of: line)
            func value(_ index: Int?) -> String? {
                guard let index, index < fields.count, !fields[index].isEmpty else { return nil }
                return fields[index]
            }
            guard let uptime = value(uptimeColumn).flatMap(Double.init) else {
                throw ReadError(description: "\(path): line \(lineNumber) has no numeric uptime.")
            }
            try add(
                uptime: uptime, timestamp: value(columns.timestamp).flatMap(Double.init),
                stepPath: value(columns.stepPath) ?? "", timestampDate: value(columns.date),
                sensorType: value(typeColumn), x: value(columns.x).flatMap(Double.init),
                y: value(columns.y).flatMap(Double.init), z: value(columns.z).flatMap(Double.init),
                place: "\(path): line \(lineNumber)")
        }
    }

    private mutating func add(
        uptime: Double, timestamp: Double?, stepPath: String, timestampDate: String?, sensorType: String?,
        x: Double?, y: Double?, z: Double?, place: String
    ) throws(ReadError) {
        guard let sensorType else {
            if let timestampDate {
                entries.append(.marker(uptime: uptime, stepPath: stepPath, timestampDate: timestampDate))
            }
            return
        }
        guard let type = MotionRecorderType(rawValue: sensorType), let sensor = SensorKind(recorderType: type)
        else {
            skippedCount += 1
            return
        }
        guard let x, let y, let z else {
            throw ReadError(description: "\(place): a \(sensorType) record needs numeric x, y and z.")
        }
        if startUptime == nil, let timestamp { startUptime = uptime - timestamp }
        entries.append(.sample(MotionSample(sensor: sensor, uptime: uptime, x: x, y: y, z: z)))
    }

    /// The fields of a CSV line; a quoted field may hold commas and doubled quotes.
    static func fields(of line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var justClosed = false
        for character in line {
            if quoted {
                if character == "\"" {
                    quoted = false
                    justClosed = true
                } else {
                    field.append(character)
                }
                continue
            }
            if character == "\"" {
                if justClosed { field.append("\"") }  // "" inside quotes is one quote
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
            justClosed = false
        }
        fields.append(field)
        return fields
    }
}
