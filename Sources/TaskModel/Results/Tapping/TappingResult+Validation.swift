extension TappingResult {
    /// The most samples a tapping result may carry: 30 s at 100 touches a second, far above
    /// what two fingers make, and small enough for a control line (1 MiB).
    public static let sampleLimit = 3000

    /// The first problem of the result for the step `stepIdentifier`; nil when it fits:
    /// its identifier is the step's, sizes and rectangles are finite with a positive size,
    /// the tap count lies between 0 and the sample count, at most `sampleLimit` samples, each
    /// with finite times, a non-negative duration and a finite `[x, y]` location.
    public func problem(forStep stepIdentifier: String, sampleLimit: Int = TappingResult.sampleLimit) -> TappingResultProblem? {
        if identifier != stepIdentifier {
            return TappingResultProblem(codingPath: "identifier", reason: "the result is for \"\(identifier)\", but the step being left is \"\(stepIdentifier)\"; send the result of the step shown.")
        }
        if endDate < startDate {
            return TappingResultProblem(codingPath: "endDate", reason: "the end date is before the start date.")
        }
        if !(viewSize.width.isFinite && viewSize.height.isFinite && viewSize.width > 0 && viewSize.height > 0) {
            return TappingResultProblem(codingPath: "viewSize", reason: "the view size must be two finite numbers above 0.")
        }
        for (key, rect) in [("buttonRectLeft", buttonRectLeft), ("buttonRectRight", buttonRectRight)] {
            if ![rect.x, rect.y, rect.width, rect.height].allSatisfy(\.isFinite) || rect.width <= 0 || rect.height <= 0 {
                return TappingResultProblem(codingPath: key, reason: "the button's frame must be four finite numbers with a width and height above 0.")
            }
        }
        let samples = samples ?? []
        if samples.count > sampleLimit {
            return TappingResultProblem(codingPath: "samples", reason: "\(samples.count) samples are more than the \(sampleLimit) a tapping step can make.")
        }
        if tapCount < 0 || tapCount > samples.count {
            return TappingResultProblem(codingPath: "tapCount", reason: "the tap count \(tapCount) must lie between 0 and the number of samples (\(samples.count)).")
        }
        for (index, sample) in samples.enumerated() {
            let path = "samples[\(index)]"
            if let timestamp = sample.timestamp, !timestamp.isFinite || timestamp < 0 {
                return TappingResultProblem(codingPath: "\(path).timestamp", reason: "the timestamp must be a finite number of seconds since the first tap.")
            }
            if !sample.uptime.isFinite {
                return TappingResultProblem(codingPath: "\(path).uptime", reason: "the uptime must be a finite number.")
            }
            if !sample.duration.isFinite || sample.duration < 0 {
                return TappingResultProblem(codingPath: "\(path).duration", reason: "the duration must be a finite number of seconds, 0 or more.")
            }
            if sample.location.count != 2 || !sample.location.allSatisfy(\.isFinite) {
                return TappingResultProblem(codingPath: "\(path).location", reason: "the location must be [x, y], two finite numbers.")
            }
        }
        return nil
    }
}
