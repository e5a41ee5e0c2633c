import RealModule

/// Coefficients of a second-order Butterworth low-pass filter (bilinear transform), set by a
/// time constant: the cut-off is √2 / (2π τ), so the non-oscillating part of the step response
/// decays with τ. Below half a sample period the filter passes its input through.
struct LowPassCoefficients: Sendable {
    var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0

    init(timeConstant tau: Double, samplePeriod: Double) {
        guard tau >= samplePeriod / 2, samplePeriod > 0 else { return }
        let cutoff = 2.0.squareRoot() / (2 * .pi * tau)
        let c = Double.tan(.pi * cutoff * samplePeriod)
        let c2 = c * c, root2c = 2.0.squareRoot() * c
        let d = c2 + root2c + 1
        b0 = c2 / d
        b1 = 2 * b0
        b2 = b0
        a1 = 2 * (c2 - 1) / d
        a2 = (1 - root2c + c2) / d
    }
}

/// A second-order low-pass filter of a 3-vector (transposed direct form II, one state pair per
/// axis). Until `timeConstant` seconds of input have been seen it outputs their running mean and
/// then starts in the steady state of that mean, so a start-up transient does not depend on a
/// single sample.
struct VectorLowPass: Sendable {
    let timeConstant: Double
    private(set) var output = Vector3.zero
    private var s0 = Vector3.zero
    private var s1 = Vector3.zero
    private var warmUpSum = Vector3.zero
    private var warmUpCount = 0.0
    private var warmUpTime = 0.0
    private(set) var isWarm = false

    init(timeConstant: Double) {
        self.timeConstant = timeConstant
    }

    /// Filters one sample, `deltaTime` after the previous one, with coefficients for the nominal
    /// sample period.
    @discardableResult
    mutating func update(_ x: Vector3, deltaTime: Double, coefficients c: LowPassCoefficients) -> Vector3 {
        guard isWarm else {
            warmUpSum += x
            warmUpCount += 1
            warmUpTime += deltaTime
            output = warmUpSum * (1 / warmUpCount)
            if warmUpTime >= timeConstant {
                isWarm = true
                settle(coefficients: c)
            }
            return output
        }
        let y = x * c.b0 + s0
        s0 = x * c.b1 - y * c.a1 + s1
        s1 = x * c.b2 - y * c.a2
        output = y
        return y
    }

    /// Puts the state in the steady state of the current output (after a change of coefficients,
    /// so it does not cause a jump).
    mutating func settle(coefficients c: LowPassCoefficients) {
        guard isWarm else { return }
        s0 = output * (1 - c.b0)
        s1 = output * (c.b2 - c.a2)
    }
}
