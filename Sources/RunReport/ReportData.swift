import Foundation
import Quality

/// Everything the report draws, gathered from the run directory: the time axis, the steps,
/// markers and prompts, and each plot's decimated series (one streaming pass per file).
struct ReportData {
    var contents: RunContents
    var quality: QualityReport
    var frame: PlotFrame
    var markers: [(seconds: Double, stepPath: String)] = []
    var prompts: [(scheduled: Double, spoken: Double?, text: String, late: Bool)] = []
    var plots: [SeriesPlot] = []

    /// Colours of the x, y, z (roll, pitch, yaw) lines.
    static let axisColors = ["#d62728", "#2ca02c", "#1f77b4"]

    init(runDirectory: URL, thresholds: QualityThresholds) throws {
        let contents = try RunContents.load(runDirectory)
        self.contents = contents
        quality = try RunQuality.evaluate(contents, thresholds: thresholds)
        let motionFiles = contents.files.filter { $0.kind == .motion && FileManager.default.fileExists(atPath: contents.url(of: $0).path) }
        let levelFiles = contents.files.filter { $0.kind == .audioLevels && FileManager.default.fileExists(atPath: contents.url(of: $0).path) }

        // The time axis: the run's start and end on CLOCK_BOOTTIME, else the data's own span.
        var origin = contents.startDate.flatMap(contents.uptime(of:))
        var finish = contents.endDate.flatMap(contents.uptime(of:))
        if origin == nil || finish == nil {
            var low = Double.infinity, high = -Double.infinity
            for file in motionFiles {
                try MotionFileReader.forEachRecord(at: contents.url(of: file)) { record in
                    low = min(low, record.uptime)
                    high = max(high, record.uptime)
                }
            }
            for file in levelFiles {
                for record in try AudioLevelRecord.read(from: contents.url(of: file)) {
                    low = min(low, record.uptime - record.timeInterval)
                    high = max(high, record.uptime)
                }
            }
            for file in contents.files {
                if let start = file.startUptime {
                    low = min(low, start)
                    high = max(high, start + (file.wallDuration ?? 0))
                }
            }
            if origin == nil { origin = low.isFinite ? low : 0 }
            if finish == nil { finish = high.isFinite ? high : origin! + 1 }
        }
        let start = origin!
        let end = max(finish!, start + 0.001)
        frame = PlotFrame(start: 0, end: end - start, steps: [])

        // Decimate the motion files into the plots.
        func decimator() -> MinMaxDecimator { MinMaxDecimator(start: start, end: end, columns: PlotFrame.columns) }
        let plotted: [MotionSensorType] = [.accelerometer, .gyro, .userAcceleration, .attitude]
        var series: [MotionSensorType: [MinMaxDecimator]] = [:]
        for type in plotted { series[type] = [decimator(), decimator(), decimator()] }
        var markerUptimes: [(Double, String)] = []
        for file in motionFiles {
            try MotionFileReader.forEachRecord(at: contents.url(of: file)) { record in
                guard let type = record.sensorType else {
                    markerUptimes.append((record.uptime, record.stepPath))
                    return
                }
                guard series[type] != nil else { return }
                let values = type == .attitude ? Self.rollPitchYaw(record) : [record.x, record.y, record.z]
                for axis in 0..<3 { series[type]![axis].add(values[axis], at: record.uptime) }
            }
        }
        markers = markerUptimes.map { ($0.0 - start, $0.1) }

        // Steps: from the task result's dates on the uptime clock, else from the markers.
        var steps: [ShadedStep] = []
        if contents.uptimeOffset != nil, !contents.steps.isEmpty {
            for (index, step) in contents.steps.enumerated() {
                let stepStart = contents.uptime(of: step.startDate)! - start
                let next = index + 1 < contents.steps.count ? contents.uptime(of: contents.steps[index + 1].startDate)! - start : end - start
                let stepEnd = step.endDate.flatMap(contents.uptime(of:)).map { $0 - start } ?? next
                steps.append(ShadedStep(stepPath: step.stepPath, start: stepStart, end: stepEnd, timer: step.duration))
            }
        } else {
            for (index, marker) in markers.enumerated() where index == 0 || marker.stepPath != markers[index - 1].stepPath {
                steps.append(ShadedStep(stepPath: marker.stepPath, start: marker.seconds, end: end - start))
                if steps.count > 1 { steps[steps.count - 2].end = marker.seconds }
            }
        }
        frame.steps = steps
        prompts = contents.prompts.map { prompt in
            (prompt.scheduledUptime - start, prompt.spokenUptime.map { $0 - start }, prompt.text,
             prompt.spokenUptime == nil || (prompt.lateness ?? 0) >= thresholds.promptLateWarningSeconds)
        }

        // Decimators bin uptimes; their columns are the frame's pixel columns, whose axis is
        // labelled in seconds since the run started.
        let titles: [(MotionSensorType, String, String, [String])] = [
            (.accelerometer, "Accelerometer", "g", ["x", "y", "z"]),
            (.gyro, "Gyroscope", "rad/s", ["x", "y", "z"]),
            (.attitude, "Attitude", "degrees", ["roll", "pitch", "yaw"]),
            (.userAcceleration, "User acceleration", "g", ["x", "y", "z"]),
        ]
        for (type, title, unit, names) in titles {
            let decimators = series[type]!
            let hasData = decimators.contains { $0.valueRange != nil }
            plots.append(SeriesPlot(
                identifier: "plot-\(type.rawValue)", title: hasData ? title : "\(title): not recorded", unit: unit,
                series: hasData ? (0..<3).map { PlotSeries(name: names[$0], color: Self.axisColors[$0], values: decimators[$0]) } : [],
                frame: frame, fixedRange: type == .attitude ? -180...180 : nil))
        }
        var average = decimator(), peak = decimator()
        for file in levelFiles {
            for record in try AudioLevelRecord.read(from: contents.url(of: file)) {
                average.add(record.average, from: record.uptime - record.timeInterval, to: record.uptime)
                peak.add(record.peak, from: record.uptime - record.timeInterval, to: record.uptime)
            }
        }
        let hasAudio = average.valueRange != nil
        plots.append(SeriesPlot(
            identifier: "plot-audio", title: hasAudio ? "Audio level" : "Audio level: not recorded", unit: "dBFS",
            series: hasAudio ? [PlotSeries(name: "average", color: "#1f77b4", values: average), PlotSeries(name: "peak", color: "#ff7f0e", values: peak)] : [],
            frame: frame, fixedRange: -100...0))
    }

    /// Roll, pitch and yaw in degrees from an attitude quaternion (x, y, z, w).
    static func rollPitchYaw(_ record: MotionFileRecord) -> [Double] {
        let (x, y, z, w) = (record.x, record.y, record.z, record.w ?? .nan)
        let roll = atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
        let pitch = asin(max(-1, min(1, 2 * (w * y - z * x))))
        let yaw = atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
        return [roll, pitch, yaw].map { $0 * 180 / .pi }
    }
}
