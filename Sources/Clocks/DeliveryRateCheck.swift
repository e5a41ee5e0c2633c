/// Whether a device delivers its frames (audio frames, motion scans) at its nominal rate, judged
/// against CLOCK_MONOTONIC as they arrive (docs/audio.md, "Devices that do not keep time").
/// Pure bookkeeping: the recorder's read loop feeds it, so the rule is tested without a device.
///
/// The rule, with `tolerance` t (10 %), `settling` s (1 s) and `slack` b frames (what the device
/// may legitimately hold ready at once: its buffer plus one transfer):
/// - too fast, from the first delivery on: more than `rate × (1 + t) × elapsed + b + rate × u`
///   frames since the first request, with `u` (1 s) the backlog a late-starting or starved reader
///   may find at once (a sound server's queued capture, an IIO buffer filled before the first
///   read: 3200 frames in 0.02 s and 30 scans at once were seen under ThreadSanitizer). A late-scheduled reader only makes `elapsed` longer, so jitter can never
///   make a device look fast; a device that answers every read at once (a file-backed PCM that is
///   not paced) is caught within about `b` frames.
/// - too slow, once `s` seconds have passed since the first delivery: fewer than
///   `rate × ((1 − t) × elapsed − lag) − b` frames since the first delivery, twice in a row. Frames
///   a starved reader has not read yet sit in the device's buffer (within `b`); a longer stall is
///   an overrun whose lost stretch the recorder counts as delivered (`delivered(_:at:)` with the
///   gap's frames), and a single late check is forgiven by the second. `lag` (2 s) is what a sound
///   server may hold back and then deliver in a burst (PulseAudio's and PipeWire's ALSA plugins
///   under load): a device at a wrong rate falls behind without end and passes it, a bursty one
///   does not. A device 4× too slow is caught after about 3.3 s, one 20 % too slow after about 21 s.
public struct DeliveryRateCheck: Sendable, Hashable {
    /// How the delivery compares with the nominal rate.
    public enum Verdict: Sendable, Hashable {
        case keepsTime
        /// The device delivered `frames` in `seconds`: `ratio` times its nominal rate.
        case tooFast(frames: Int, seconds: Double, ratio: Double)
        case tooSlow(frames: Int, seconds: Double, ratio: Double)
    }

    /// Frames (or scans) per second the device was configured for.
    public let nominalRate: Double
    /// Fraction the rate may be off by (0.1 = ±10 %).
    public let tolerance: Double
    /// Seconds after the first delivery before slowness is judged.
    public let settlingSeconds: Double
    /// Frames a device may deliver at once beyond the rate (its buffer and one transfer).
    public let slackFrames: Int
    /// Seconds of nominal frames a device may hand over at once beyond `slackFrames` before it
    /// counts as fast: what a reader that starts late or was starved finds queued.
    public let burstSeconds: Double
    /// Seconds of frames a device may fall behind and catch up later before it counts as slow.
    /// Infinite by default: the recorders judge only speed, because a reader starved of CPU (a
    /// sanitizer build, a loaded board) looks like a slow device, and a slow device loses
    /// nothing by recording on (QC reports its rate, docs/quality.md). 2 s is the tested rule.
    public let lagAllowanceSeconds: Double

    private var requested: Double?
    private var firstDelivery: Double?
    /// Frames since the first request; saturates rather than trap.
    public private(set) var frames = 0
    private var slowChecks = 0

    public init(nominalRate: Double, slackFrames: Int, tolerance: Double = 0.1, settlingSeconds: Double = 1,
                burstSeconds: Double = 1, lagAllowanceSeconds: Double = .infinity) {
        self.nominalRate = nominalRate
        self.burstSeconds = max(burstSeconds, 0)
        self.lagAllowanceSeconds = max(lagAllowanceSeconds, 0)
        self.slackFrames = max(slackFrames, 0)
        self.tolerance = tolerance
        self.settlingSeconds = settlingSeconds
    }

    /// The reader asks the device for its first frames at CLOCK_MONOTONIC `now`.
    public mutating func begin(at now: Double) {
        if requested == nil { requested = now }
    }

    /// `count` frames arrived (or were lost in a recovered gap) by CLOCK_MONOTONIC `now`.
    public mutating func delivered(_ count: Int, at now: Double) -> Verdict {
        let start = requested ?? now
        if requested == nil { requested = now }
        frames = frames.saturatingAdd(max(count, 0))
        guard nominalRate > 0, nominalRate.isFinite else { return .keepsTime }
        let slack = Double(slackFrames)
        let sinceRequest = max(now - start, 0)
        let first = firstDelivery ?? now
        if firstDelivery == nil { firstDelivery = now }
        if Double(frames) > nominalRate * ((1 + tolerance) * sinceRequest + burstSeconds) + slack {
            return .tooFast(frames: frames, seconds: sinceRequest, ratio: Self.ratio(frames, sinceRequest, nominalRate))
        }
        let sinceFirst = now - first
        guard sinceFirst >= settlingSeconds else { return .keepsTime }
        if Double(frames) < nominalRate * ((1 - tolerance) * sinceFirst - lagAllowanceSeconds) - slack {
            slowChecks += 1
            if slowChecks >= 2 {
                return .tooSlow(frames: frames, seconds: sinceFirst, ratio: Self.ratio(frames, sinceFirst, nominalRate))
            }
        } else {
            slowChecks = 0
        }
        return .keepsTime
    }

    /// Delivered rate over nominal rate; infinity when no time has passed.
    static func ratio(_ frames: Int, _ seconds: Double, _ rate: Double) -> Double {
        seconds > 0 ? Double(frames) / seconds / rate : .infinity
    }
}

extension DeliveryRateCheck.Verdict {
    /// A sentence for the recorder's failure: what the device did and what to do, or nil when it
    /// keeps time. `device` names it ("The microphone \"hw:0\""), `unit` what it counts.
    public func failure(device: String, unit: String) -> String? {
        let (frames, seconds, ratio, kind): (Int, Double, Double, String)
        switch self {
        case .keepsTime: return nil
        case .tooFast(let f, let s, let r): (frames, seconds, ratio, kind) = (f, s, r, "faster")
        case .tooSlow(let f, let s, let r): (frames, seconds, ratio, kind) = (f, s, r, "slower")
        }
        let speed = ratio.isFinite ? "\(Self.twoDecimals(ratio)) times" : "far beyond"
        return "\(device) delivered \(frames) \(unit) in \(Self.twoDecimals(seconds)) s, \(speed) its nominal rate: it runs \(kind) than the clock, so its recording does not keep time and was stopped. Check the device's configuration (an unpaced or file-backed device, a wrong sampling rate) and start the task again."
    }

    /// `value` with two decimals, without Foundation.
    static func twoDecimals(_ value: Double) -> String {
        let scaled = (value * 100).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return "\(value)" }
        let whole = Int(scaled)
        let fraction = abs(whole % 100)
        return "\(whole < 0 ? "-" : "")\(abs(whole / 100)).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
