import RealModule
import TestSupport

extension SeededGenerator {
    /// A normally distributed value (Box–Muller).
    mutating func gaussian(standardDeviation: Double) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self)
        return standardDeviation * (-2 * Double.log(u1)).squareRoot() * Double.cos(2 * .pi * u2)
    }
}
