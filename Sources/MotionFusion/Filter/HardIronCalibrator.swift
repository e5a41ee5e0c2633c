import RealModule

/// Online hard-iron (constant offset) calibration of a magnetometer by a linear least-squares
/// sphere fit: `|m|² = 2 b·m + c` with `c = r² − |b|²` (the "algebraic" fit, e.g. Ozyagcilar,
/// "Calibrating an eCompass in the Presence of Hard- and Soft-Iron Interference", NXP AN4246).
/// The normal equations are accumulated with exponential forgetting in fixed storage, so each
/// sample costs O(1) and no heap allocation; they are solved every `solveInterval` samples.
/// Accuracy follows how well the samples cover the sphere (smallest eigenvalue of their
/// covariance relative to the isotropic r²/3) and how well they fit it.
///
/// A fit is not applied at once: it must differ from the offset in use by more than twice its
/// uncertainty (radius residual over the square root of the coverage; a fit that does not
/// only raises the accuracy of the offset in use), a low-accuracy fit
/// must also stay consistent for `lowAccuracyConfirmation` seconds and be smaller than the
/// field, and the offset in use then moves to it over `transitionTime`. On a magnetometer that
/// is already calibrated, refitting noise would otherwise turn the heading by degrees (the
/// horizontal field is often only 15–20 µT), and a magnet near a still device fits a large,
/// wrong offset.
public struct HardIronCalibrator: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Seconds over which old samples fade out of the fit.
        public var memory: Double = 300
        /// Samples between two solves.
        public var solveInterval: Int = 10
        /// Minimum effective number of samples before a first solve.
        public var minimumSamples: Double = 50
        /// Plausible field strength range in µT (the Earth's field is 25–65 µT).
        public var fieldStrengthRange: ClosedRange<Double> = 15...100
        /// Coverage ratios from which the accuracy is low, medium and high.
        public var coverageForLow: Double = 0.05
        public var coverageForMedium: Double = 0.15
        public var coverageForHigh: Double = 0.35
        /// Relative RMS radius error above which the accuracy stays at most low.
        public var maximumRelativeResidual: Double = 0.05
        /// Seconds a low-accuracy fit must stay consistent before it is applied.
        public var lowAccuracyConfirmation: Double = 30
        /// Time constant, seconds, of the move from the offset in use to an accepted fit.
        public var transitionTime: Double = 2
        /// Whether offsets are estimated at all (off: the field is used as measured, as by a
        /// filter without calibration).
        public var isEnabled = true
        /// How many times smaller the spread of |m − b|² over the remembered samples must be with
        /// a new fit than with the offset in use before the fit is applied (1: no such test). A
        /// fit that does not make the field's norm clearly more constant is not worth turning the
        /// heading for; one fitted through a disturbance does not.
        public var minimumImprovement: Double = 1

        public init() {}
    }

    public let settings: Settings
    /// Hard-iron offset in use in µT (zero until a fit is accepted; moves to `target` smoothly).
    public private(set) var offset: Vector3 = .zero
    /// The accepted fit the offset in use is moving to.
    public private(set) var target: Vector3 = .zero
    /// Counts the fits that came into use (the offset reached a new target): the field the
    /// attitude filter sees has changed, so its magnetic reference should be learned anew.
    public private(set) var revision = 0
    private var lowCandidate: Vector3?
    private var lowCandidateTime = 0.0
    /// Estimated field strength in µT (zero until a fit is accepted).
    public private(set) var fieldStrength: Double = 0
    /// Accuracy of `offset`; it only rises (a fit is accepted when at least as good as the last).
    public private(set) var accuracy: MagneticFieldCalibrationAccuracy = .uncalibrated

    // Exponentially weighted sums: Σ m mᵀ, Σ m, n, Σ m |m|², Σ |m|², Σ |m|⁴.
    private var sxx = 0.0, sxy = 0.0, sxz = 0.0, syy = 0.0, syz = 0.0, szz = 0.0
    private var sx = 0.0, sy = 0.0, sz = 0.0, n = 0.0
    private var rx = 0.0, ry = 0.0, rz = 0.0, r1 = 0.0, r2 = 0.0
    private var samplesSinceSolve = 0
    /// The last sample interval, seconds (to time the low-accuracy confirmation).
    private var solveStep = 0.0
    private var lastUptime: Double?

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The field with the offset removed, tagged with the current accuracy.
    public func calibrated(_ raw: Vector3) -> CalibratedMagneticField {
        CalibratedMagneticField(field: raw - offset, accuracy: accuracy)
    }

    /// Adds one raw magnetometer sample (µT) taken at `uptime` seconds.
    public mutating func add(_ m: Vector3, uptime: Double) {
        guard settings.isEnabled else { return }
        let elapsed = lastUptime.map { abs(uptime - $0) } ?? 0
        lastUptime = uptime
        if offset != target {
            offset += (target - offset) * min(1, elapsed / settings.transitionTime)
            if (target - offset).magnitude < 0.01 * fieldStrength {
                offset = target
                revision += 1
            }
        }
        let keep = Double.exp(-elapsed / settings.memory)
        let squared = m.magnitudeSquared
        sxx = sxx * keep + m.x * m.x
        sxy = sxy * keep + m.x * m.y
        sxz = sxz * keep + m.x * m.z
        syy = syy * keep + m.y * m.y
        syz = syz * keep + m.y * m.z
        szz = szz * keep + m.z * m.z
        sx = sx * keep + m.x
        sy = sy * keep + m.y
        sz = sz * keep + m.z
        n = n * keep + 1
        rx = rx * keep + m.x * squared
        ry = ry * keep + m.y * squared
        rz = rz * keep + m.z * squared
        r1 = r1 * keep + squared
        r2 = r2 * keep + squared * squared
        samplesSinceSolve += 1
        if samplesSinceSolve >= settings.solveInterval, n >= settings.minimumSamples {
            samplesSinceSolve = 0
            solveStep = elapsed
            solve()
        }
    }

    private mutating func solve() {
        // The 4×5 augmented normal equations in stack scratch space (no heap allocation).
        typealias Row = (Double, Double, Double, Double, Double)
        let rows: (Row, Row, Row, Row) = (
            (sxx, sxy, sxz, sx, rx), (sxy, syy, syz, sy, ry), (sxz, syz, szz, sz, rz), (sx, sy, sz, n, r1)
        )
        let solution = withUnsafeTemporaryAllocation(of: Double.self, capacity: 20) {
            system -> (Double, Double, Double, Double)? in
            func store(_ index: Int, _ row: Row) {
                system[index * 5] = row.0
                system[index * 5 + 1] = row.1
                system[index * 5 + 2] = row.2
                system[index * 5 + 3] = row.3
                system[index * 5 + 4] = row.4
            }
            store(0, rows.0)
            store(1, rows.1)
            store(2, rows.2)
            store(3, rows.3)
            guard Self.solve4(system) else { return nil }
            return (system[4], system[9], system[14], system[19])
        }
        guard let p = solution else { return }
        let center = Vector3(x: p.0 / 2, y: p.1 / 2, z: p.2 / 2)
        let radiusSquared = p.3 + center.magnitudeSquared
        guard radiusSquared > 0 else { return }
        let radius = radiusSquared.squareRoot()

        // Residual of |m|² − p·[m, 1] over the samples, from the sums: Σ|m|⁴ − 2 p·rhs + pᵀ S p.
        let pRhs = p.0 * rx + p.1 * ry + p.2 * rz + p.3 * r1
        let sp = (
            sxx * p.0 + sxy * p.1 + sxz * p.2 + sx * p.3,
            sxy * p.0 + syy * p.1 + syz * p.2 + sy * p.3,
            sxz * p.0 + syz * p.1 + szz * p.2 + sz * p.3,
            sx * p.0 + sy * p.1 + sz * p.2 + n * p.3
        )
        let pSp = p.0 * sp.0 + p.1 * sp.1 + p.2 * sp.2 + p.3 * sp.3
        let meanSquaredResidual = max(0, r2 - 2 * pRhs + pSp) / n
        // |m − b|² − r² ≈ 2 r δ for a radius error δ.
        let relativeResidual = meanSquaredResidual.squareRoot() / (2 * radiusSquared)

        let mean = Vector3(x: sx / n, y: sy / n, z: sz / n)
        let smallest = Self.smallestEigenvalue(
            xx: sxx / n - mean.x * mean.x, xy: sxy / n - mean.x * mean.y,
            xz: sxz / n - mean.x * mean.z, yy: syy / n - mean.y * mean.y,
            yz: syz / n - mean.y * mean.z, zz: szz / n - mean.z * mean.z
        )
        let coverage = smallest / (radiusSquared / 3)

        var level: MagneticFieldCalibrationAccuracy
        if !settings.fieldStrengthRange.contains(radius) || coverage < settings.coverageForLow {
            level = .uncalibrated
        } else if coverage < settings.coverageForMedium {
            level = .low
        } else if coverage < settings.coverageForHigh {
            level = .medium
        } else {
            level = .high
        }
        if relativeResidual > settings.maximumRelativeResidual {
            level = min(level, .low)
        }
        guard level != .uncalibrated, level >= accuracy else { return }
        // Radius error (µT) over the root of the coverage: how far the centre can be off.
        let uncertainty = relativeResidual * 2 * radius / coverage.squareRoot()
        guard (center - target).magnitude > 2 * uncertainty else {
            // The fit confirms the offset in use (zero included) as well as it can resolve:
            // the accuracy rises, the offset stays.
            fieldStrength = radius
            accuracy = level
            return
        }
        if level == .low {
            // Apply only a fit that has stayed put (within its uncertainty) for a while.
            guard center.magnitude < radius, let candidate = lowCandidate,
                (center - candidate).magnitude <= max(uncertainty, 0.05 * radius)
            else {
                lowCandidate = center
                lowCandidateTime = 0
                return
            }
            lowCandidateTime += Double(settings.solveInterval) * solveStep
            guard lowCandidateTime >= settings.lowAccuracyConfirmation else { return }
        }
        if settings.minimumImprovement > 1 {
            let now = squaredNormSpread(offset: target), new = squaredNormSpread(offset: center)
            guard now >= settings.minimumImprovement * new else { return }
        }
        lowCandidate = nil
        target = center
        fieldStrength = radius
        accuracy = level
    }

    /// The relative spread of |m − b|² over the remembered samples (standard deviation over mean)
    /// for the offset `b`, from the accumulated sums: near zero when `b` is the sphere's centre,
    /// and about twice the relative spread of the field's norm.
    func squaredNormSpread(offset b: Vector3) -> Double {
        guard n > 0 else { return 0 }
        // f = |m|² − 2 b·m + |b|²; Σf and Σf² expand into the sums kept per sample.
        let bb = b.magnitudeSquared
        let bs = b.x * sx + b.y * sy + b.z * sz
        let bR = b.x * rx + b.y * ry + b.z * rz
        let bSb = b.x * (sxx * b.x + sxy * b.y + sxz * b.z) + b.y * (sxy * b.x + syy * b.y + syz * b.z)
            + b.z * (sxz * b.x + syz * b.y + szz * b.z)
        let sum = r1 - 2 * bs + n * bb
        let sumOfSquares = r2 + 4 * bSb + n * bb * bb - 4 * bR + 2 * bb * r1 - 4 * bb * bs
        let mean = sum / n
        guard mean > 0 else { return 0 }
        return max(0, sumOfSquares / n - mean * mean).squareRoot() / mean
    }

    /// Gaussian elimination with partial pivoting on a 4×5 augmented matrix, in place; the
    /// solution ends in the last column. Returns false when the system is singular.
    private static func solve4(_ a: UnsafeMutableBufferPointer<Double>) -> Bool {
        for column in 0..<4 {
            var pivot = column
            for row in (column + 1)..<4 where abs(a[row * 5 + column]) > abs(a[pivot * 5 + column]) {
                pivot = row
            }
            let pivotValue = a[pivot * 5 + column]
            guard abs(pivotValue) > 1e-12 else { return false }
            if pivot != column {
                for k in 0..<5 { a.swapAt(pivot * 5 + k, column * 5 + k) }
            }
            for k in column..<5 { a[column * 5 + k] /= pivotValue }
            for row in 0..<4 where row != column {
                let factor = a[row * 5 + column]
                guard factor != 0 else { continue }
                for k in column..<5 { a[row * 5 + k] -= factor * a[column * 5 + k] }
            }
        }
        return true
    }

    /// Smallest eigenvalue of a symmetric 3×3 matrix (trigonometric closed form).
    static func smallestEigenvalue(
        xx: Double, xy: Double, xz: Double, yy: Double, yz: Double, zz: Double
    ) -> Double {
        let offDiagonal = xy * xy + xz * xz + yz * yz
        let mean = (xx + yy + zz) / 3
        let spread = (xx - mean) * (xx - mean) + (yy - mean) * (yy - mean)
            + (zz - mean) * (zz - mean) + 2 * offDiagonal
        let p = (spread / 6).squareRoot()
        guard p > 0 else { return mean }
        let bxx = (xx - mean) / p, byy = (yy - mean) / p, bzz = (zz - mean) / p
        let bxy = xy / p, bxz = xz / p, byz = yz / p
        let determinant = bxx * (byy * bzz - byz * byz) - bxy * (bxy * bzz - byz * bxz)
            + bxz * (bxy * byz - byy * bxz)
        let phi = Double.acos(min(1, max(-1, determinant / 2))) / 3
        return mean + 2 * p * Double.cos(phi + 2 * .pi / 3)
    }
}
