import Foundation

/// The checks of one motion file: per sensor type the rate, the sample count, gaps, stuck and
/// clipped values; per file gravity while still and gyroscope bias (docs/quality.md).
struct MotionChecks {
    let file: RecordedFile
    let thresholds: QualityThresholds
    let requested: (Double, SensorRate.Source)?

    private var sensors: [MotionSensorType: SensorSummary] = [:]
    private var stillness: StillnessAccumulator
    private var firstMarkerUptime: Double?
    private var markerCount = 0
    private let noted: [String: (device: Double, requested: Double)]

    /// `requested` is the override or the task copy's frequency, when known.
    init(file: RecordedFile, requested: (Double, SensorRate.Source)?, thresholds: QualityThresholds) {
        self.file = file
        self.thresholds = thresholds
        self.requested = requested
        noted = SensorRate.notedRates(file.notes)
        stillness = StillnessAccumulator(
            windowSeconds: thresholds.stillWindowSeconds,
            accelerometerDeviation: thresholds.stillAccelerometerDeviation,
            gyroDeviation: thresholds.stillGyroDeviation)
    }

    /// The rate for a sensor type, or nil when only the data can tell.
    func rate(for type: MotionSensorType) -> SensorRate? {
        let note = noted[SensorRate.notedSensor(for: type)] ?? noted["*"]
        if let (value, source) = requested {
            return SensorRate(requested: value, device: note?.device, source: source)
        }
        if let note { return SensorRate(requested: note.requested, device: note.device, source: .notes) }
        return nil
    }

    /// Reads the file and returns its checks. A JSON or CSV file with neither markers nor
    /// samples is some other recorder's file and gets no checks, unless `isMotion` (the task
    /// copy declares it a motion recorder): then its emptiness fails.
    static func evaluate(
        file: RecordedFile, url: URL, requested: (Double, SensorRate.Source)?, isMotion: Bool, thresholds: QualityThresholds
    ) throws -> [QualityCheck] {
        var checks = MotionChecks(file: file, requested: requested, thresholds: thresholds)
        try MotionFileReader.forEachRecord(at: url) { checks.add($0) }
        if checks.sensors.isEmpty && checks.markerCount == 0 && !isMotion { return [] }
        return checks.finish()
    }

    mutating func add(_ record: MotionFileRecord) {
        guard let type = record.sensorType else {
            if firstMarkerUptime == nil { firstMarkerUptime = record.uptime }
            markerCount += 1
            return
        }
        guard record.x.isFinite, record.y.isFinite, record.z.isFinite else { return }
        if sensors[type] == nil {
            let period = rate(for: type).map { 1 / $0.expected }
            sensors[type] = SensorSummary(type: type, period: period, tolerance: thresholds.gapTolerancePeriods)
        }
        sensors[type]!.add(record, tolerance: thresholds.gapTolerancePeriods)
        switch type {
        case .accelerometer: stillness.addAccelerometer(uptime: record.uptime, x: record.x, y: record.y, z: record.z)
        case .gyro: stillness.addGyro(uptime: record.uptime, x: record.x, y: record.y, z: record.z)
        default: break
        }
    }

    mutating func finish() -> [QualityCheck] {
        stillness.finish()
        guard !sensors.isEmpty else {
            return [QualityCheck(
                identifier: file.identifier, check: "samples", verdict: .failed,
                message: "The motion file \(file.relativePath) holds no samples: the sensors delivered nothing, so this recording must be repeated.",
                figures: ["samples": 0])]
        }
        var checks: [QualityCheck] = []
        for type in sensors.keys.sorted() {
            var sensor = sensors[type]!
            sensor.settlePeriod(tolerance: thresholds.gapTolerancePeriods)
            let identifier = "\(file.identifier)/\(type.rawValue)"
            let rate = rate(for: type) ?? sensor.estimatedPeriod.map { SensorRate(requested: 1 / $0, device: nil, source: .data) }
            checks.append(rateCheck(identifier, sensor, rate))
            checks.append(sampleCountCheck(identifier, sensor, rate))
            checks.append(gapCheck(identifier, sensor))
            if type.isRaw {
                checks.append(stuckCheck(identifier, sensor))
                checks.append(clippingCheck(identifier, sensor))
            }
        }
        if sensors[.accelerometer] != nil { checks.append(gravityCheck()) }
        if sensors[.gyro] != nil { checks.append(gyroBiasCheck()) }
        return checks
    }

    private var startUptime: Double? { file.startUptime ?? firstMarkerUptime }

    private func rateCheck(_ identifier: String, _ sensor: SensorSummary, _ rate: SensorRate?) -> QualityCheck {
        guard let achieved = sensor.achievedRate, let rate else {
            return QualityCheck(identifier: identifier, check: "rate", verdict: .failed,
                                message: "Too few \(sensor.type.rawValue) samples (\(sensor.count)) to measure a sampling rate.",
                                figures: ["samples": .number(Double(sensor.count))])
        }
        var figures: [String: QualityFigure] = [
            "requestedHz": .number(rate.requested), "expectedHz": .number(rate.expected),
            "achievedHz": .number(achieved), "source": .text(rate.source.rawValue),
        ]
        if let device = rate.device { figures["deviceHz"] = .number(device) }
        if rate.source == .data {
            return QualityCheck(identifier: identifier, check: "rate", verdict: .ok,
                                message: "\(sensor.type.rawValue) ran at \(Format.hertz(achieved)); no requested rate was found to compare it with.",
                                figures: figures)
        }
        let deviation = abs(achieved / rate.expected - 1)
        figures["deviation"] = .number(deviation)
        let verdict = QualityVerdict.grading(deviation, warning: thresholds.rateWarningFraction, failed: thresholds.rateFailedFraction)
        var message = "\(sensor.type.rawValue) ran at \(Format.hertz(achieved)) for \(Format.hertz(rate.requested)) requested"
        if let device = rate.device { message += " (the device offered \(Format.hertz(device)))" }
        message += verdict == .ok ? "." : ", \(Format.percent(deviation)) off: analyses that assume the requested rate will be wrong."
        return QualityCheck(identifier: identifier, check: "rate", verdict: verdict, message: message, figures: figures)
    }

    private func sampleCountCheck(_ identifier: String, _ sensor: SensorSummary, _ rate: SensorRate?) -> QualityCheck {
        let span = sensor.lastUptime - sensor.firstUptime
        guard let rate, rate.expected > 0 else {
            return QualityCheck(identifier: identifier, check: "sampleCount", verdict: .ok,
                                message: "\(sensor.count) \(sensor.type.rawValue) samples over \(Format.seconds(span)).",
                                figures: ["samples": .number(Double(sensor.count))])
        }
        let duration = file.wallDuration ?? (span + 1 / rate.expected)
        let expected = duration * rate.expected
        let missing = expected > 0 ? max(0, 1 - Double(sensor.count) / expected) : 0
        let verdict = QualityVerdict.grading(missing, warning: thresholds.sampleCountWarningFraction, failed: thresholds.sampleCountFailedFraction)
        let message = verdict == .ok
            ? "\(sensor.count) \(sensor.type.rawValue) samples for about \(Int(expected.rounded())) expected (\(Format.seconds(duration)) at \(Format.hertz(rate.expected)))."
            : "Only \(sensor.count) \(sensor.type.rawValue) samples for about \(Int(expected.rounded())) expected over \(Format.seconds(duration)): \(Format.percent(missing)) of the data is missing."
        return QualityCheck(identifier: identifier, check: "sampleCount", verdict: verdict, message: message, figures: [
            "samples": .number(Double(sensor.count)), "expectedSamples": .number(expected.rounded()),
            "durationSeconds": .number(duration), "missingFraction": .number(missing),
        ])
    }

    private func gapCheck(_ identifier: String, _ sensor: SensorSummary) -> QualityCheck {
        let gaps = sensor.gaps ?? GapTracker(period: .infinity, tolerance: thresholds.gapTolerancePeriods)
        var figures: [String: QualityFigure] = [
            "count": .number(Double(gaps.count)), "totalSeconds": .number(gaps.totalSeconds),
            "longestSeconds": .number(gaps.longest?.seconds ?? 0),
        ]
        guard let longest = gaps.longest else {
            return QualityCheck(identifier: identifier, check: "gaps", verdict: .ok,
                                message: "No gaps in the \(sensor.type.rawValue) samples.", figures: figures)
        }
        let at = longest.afterUptime - (startUptime ?? sensor.firstUptime)
        figures["longestAtSeconds"] = .number(at)
        figures["longestAfterUptime"] = .number(longest.afterUptime)
        figures["longestStepPath"] = .text(longest.stepPath)
        let verdict: QualityVerdict = gaps.totalSeconds >= thresholds.gapFailedSeconds ? .failed
            : gaps.totalSeconds > thresholds.gapWarningSeconds ? .warning : .ok
        let message = "\(gaps.count) gap(s) in the \(sensor.type.rawValue) samples, \(Format.seconds(gaps.totalSeconds)) missing in all; the longest, \(Format.seconds(longest.seconds)), at \(Format.seconds(at)) into the recording during \"\(longest.stepPath)\"."
        return QualityCheck(identifier: identifier, check: "gaps", verdict: verdict, message: message, figures: figures)
    }

    private func stuckCheck(_ identifier: String, _ sensor: SensorSummary) -> QualityCheck {
        let axes = ["x", "y", "z"]
        let span = sensor.lastUptime - sensor.firstUptime
        let worst = (0..<3).compactMap { axis in sensor.stuck[axis].longest.map { (axis, $0) } }.max { $0.1.samples < $1.1.samples }
        guard let (axis, run) = worst, run.samples >= thresholds.stuckMinimumSamples, run.seconds >= thresholds.stuckWarningSeconds else {
            return QualityCheck(identifier: identifier, check: "stuck", verdict: .ok,
                                message: "Every \(sensor.type.rawValue) axis changes from sample to sample.",
                                figures: ["longestSeconds": .number(worst?.1.seconds ?? 0), "samples": .number(Double(worst?.1.samples ?? 0))])
        }
        let failed = run.seconds >= thresholds.stuckFailedSeconds || (span > 0 && run.seconds >= 0.5 * span)
        return QualityCheck(
            identifier: identifier, check: "stuck", verdict: failed ? .failed : .warning,
            message: "The \(sensor.type.rawValue) \(axes[axis]) axis repeated the value \(Format.number(run.value)) for \(Format.seconds(run.seconds)) (\(run.samples) samples): the channel is stuck or dead.",
            figures: [
                "axis": .text(axes[axis]), "longestSeconds": .number(run.seconds), "samples": .number(Double(run.samples)),
                "value": .number(run.value), "startSeconds": .number(run.startUptime - (startUptime ?? sensor.firstUptime)),
            ])
    }

    private func clippingCheck(_ identifier: String, _ sensor: SensorSummary) -> QualityCheck {
        let fullScale: Double
        switch sensor.type {
        case .accelerometer: fullScale = thresholds.accelerometerFullScale
        case .gyro: fullScale = thresholds.gyroFullScale
        default: fullScale = thresholds.magnetometerFullScale
        }
        let axes = ["x", "y", "z"]
        let perAxis = (0..<3).map { sensor.extremes[$0].clippedSamples(fullScale: fullScale, minimumSamples: thresholds.clippingMinimumSamples) }
        let clipped = perAxis.reduce(0, +)
        let fraction = sensor.count > 0 ? Double(clipped) / Double(sensor.count * 3) : 0
        var figures: [String: QualityFigure] = ["clippedSamples": .number(Double(clipped)), "fraction": .number(fraction)]
        guard clipped > 0, let axis = perAxis.indices.max(by: { perAxis[$0] < perAxis[$1] }),
            let value = sensor.extremes[axis].clippedValue(fullScale: fullScale, minimumSamples: thresholds.clippingMinimumSamples)
        else {
            return QualityCheck(identifier: identifier, check: "clipping", verdict: .ok,
                                message: "No \(sensor.type.rawValue) values pinned at full scale.", figures: figures)
        }
        figures["axis"] = .text(axes[axis])
        figures["value"] = .number(value)
        let verdict: QualityVerdict = fraction >= thresholds.clippingFailedFraction ? .failed : .warning
        return QualityCheck(
            identifier: identifier, check: "clipping", verdict: verdict,
            message: "\(clipped) \(sensor.type.rawValue) value(s) sat at the sensor's full scale (\(axes[axis]) axis at \(Format.number(value)) \(sensor.type.unit)): movements beyond the sensor's range were cut off.",
            figures: figures)
    }

    private func gravityCheck() -> QualityCheck {
        let identifier = "\(file.identifier)/accelerometer"
        guard stillness.gravity.count > 0 else {
            return QualityCheck(identifier: identifier, check: "gravity", verdict: .ok,
                                message: "The device was never still long enough to check the accelerometer against gravity.",
                                figures: ["stillSeconds": 0])
        }
        let magnitude = stillness.gravity.mean
        let deviation = abs(magnitude - 1)
        let verdict = QualityVerdict.grading(deviation, warning: thresholds.gravityWarningDeviation, failed: thresholds.gravityFailedDeviation)
        let message = verdict == .ok
            ? "While still the accelerometer read \(Format.number(magnitude)) g, as gravity should."
            : "While still the accelerometer read \(Format.number(magnitude)) g instead of 1 g: it is miscalibrated or its scale is wrong."
        return QualityCheck(identifier: identifier, check: "gravity", verdict: verdict, message: message, figures: [
            "stillSeconds": .number(stillness.stillSeconds), "magnitudeG": .number(magnitude), "deviationG": .number(deviation),
        ])
    }

    private func gyroBiasCheck() -> QualityCheck {
        let identifier = "\(file.identifier)/gyro"
        guard stillness.gyroBias[0].count > 0 else {
            return QualityCheck(identifier: identifier, check: "gyroBias", verdict: .ok,
                                message: "The device was never still long enough to measure the gyroscope's bias.",
                                figures: ["stillSeconds": 0])
        }
        let bias = stillness.gyroBias.map(\.mean)
        let magnitude = (bias[0] * bias[0] + bias[1] * bias[1] + bias[2] * bias[2]).squareRoot()
        let verdict = QualityVerdict.grading(magnitude, warning: thresholds.gyroBiasWarning, failed: thresholds.gyroBiasFailed)
        let message = verdict == .ok
            ? "While still the gyroscope read \(Format.number(magnitude)) rad/s, a normal bias."
            : "While still the gyroscope read \(Format.number(magnitude)) rad/s: its bias is large, so rotation and attitude drift."
        return QualityCheck(identifier: identifier, check: "gyroBias", verdict: verdict, message: message, figures: [
            "stillSeconds": .number(stillness.stillSeconds), "x": .number(bias[0]), "y": .number(bias[1]), "z": .number(bias[2]),
            "magnitude": .number(magnitude),
        ])
    }
}
