import ArgumentParser
import MotionFusion

/// `--gyro-delay SECONDS`, shared by `fuse` and `record`: the device's gyro lag the fusion
/// compensates (docs/fusion.md, "Gyro delay"). Taken as text and checked by the command, so a
/// bad value is refused with one line and exit status 1 like the commands' other bad input.
struct GyroDelayOption: ParsableArguments {
    @Option(
        // Unconditional, so a negative value reaches the range check instead of reading as a flag.
        name: .customLong("gyro-delay"), parsing: .unconditional, help: ArgumentHelp(
            "Seconds by which the IMU's gyroscope lags its accelerometer, from 0 to \(DeviceMotionEstimator.Settings.gyroDelayRange.upperBound) (default 0; docs/fusion.md says how to measure it).",
            valueName: "seconds"))
    var text: String?

    /// The delay in seconds (0 when not given); a bad value goes to `fail` as the sentence
    /// saying what is allowed.
    func seconds(orElse fail: (String) -> Never) -> Double {
        guard let text else { return 0 }
        let range = DeviceMotionEstimator.Settings.gyroDelayRange
        guard let seconds = Double(text), range.contains(seconds) else {
            fail("--gyro-delay \"\(text)\" is not a number of seconds from \(range.lowerBound) to \(range.upperBound); give how long the gyroscope lags the accelerometer, e.g. 0.00175 (half a sample at 286 Hz).")
        }
        return seconds
    }
}
