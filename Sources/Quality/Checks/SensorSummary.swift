/// Everything the checks need about one sensor type of a motion file, gathered in one pass.
struct SensorSummary: Sendable {
    let type: MotionSensorType
    var count = 0
    var firstUptime = Double.nan
    var lastUptime = Double.nan
    /// Set once the expected period is known; until then the first uptimes wait in `early`.
    var gaps: GapTracker?
    var early: [(uptime: Double, stepPath: String)] = []
    var stuck = [StuckRunTracker](repeating: StuckRunTracker(), count: 3)
    var extremes = [ExtremeTracker](repeating: ExtremeTracker(), count: 3)

    /// Samples kept back to estimate the rate when nothing states it.
    static let estimationSamples = 101

    init(type: MotionSensorType, period: Double?, tolerance: Double) {
        self.type = type
        if let period { gaps = GapTracker(period: period, tolerance: tolerance) }
    }

    mutating func add(_ record: MotionFileRecord, tolerance: Double) {
        if count == 0 { firstUptime = record.uptime }
        count += 1
        lastUptime = record.uptime
        if gaps != nil {
            gaps!.next(uptime: record.uptime, stepPath: record.stepPath)
        } else {
            early.append((record.uptime, record.stepPath))
            if early.count >= Self.estimationSamples { settlePeriod(tolerance: tolerance) }
        }
        if type.isRaw {
            stuck[0].next(record.x, uptime: record.uptime)
            stuck[1].next(record.y, uptime: record.uptime)
            stuck[2].next(record.z, uptime: record.uptime)
            extremes[0].next(record.x)
            extremes[1].next(record.y)
            extremes[2].next(record.z)
        }
    }

    /// The period estimated from the samples kept back (median interval), once.
    private(set) var estimatedPeriod: Double?

    /// Estimates the period from the kept samples and replays them into a gap tracker.
    mutating func settlePeriod(tolerance: Double) {
        guard gaps == nil else { return }
        let intervals = zip(early.dropFirst(), early).map { $0.uptime - $1.uptime }.filter { $0 > 0 }.sorted()
        guard !intervals.isEmpty else { return }
        let period = intervals[intervals.count / 2]
        estimatedPeriod = period
        var tracker = GapTracker(period: period, tolerance: tolerance)
        for sample in early { tracker.next(uptime: sample.uptime, stepPath: sample.stepPath) }
        gaps = tracker
        early = []
    }

    /// Samples per second while samples arrived: over the span of the samples less the time
    /// missing in gaps, so a hole (judged by the gap check) does not read as a slow sensor.
    var achievedRate: Double? {
        let delivering = lastUptime - firstUptime - (gaps?.totalSeconds ?? 0)
        return count >= 2 && delivering > 0 ? Double(count - 1) / delivering : nil
    }
}
