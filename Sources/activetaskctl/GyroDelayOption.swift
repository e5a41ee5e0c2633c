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

    /// The delay in seconds, or the sentence saying why the value given is refused.
    func seconds() -> Result<Double, GyroDelayOptionError> {
        guard let text else { return .success(0) }
        let range = DeviceMotionEstimator.Settings.gyroDelayRange
        guard let seconds = Double(text), range.contains(seconds) else {
            return .failure(GyroDelayOptionError(description:
                "--gyro-delay \"\(text)\" is not a number of seconds from \(range.lowerBound) to \(range.upperBound); give how long the gyroscope lags the accelerometer, e.g. 0.00175 (half a sample at 286 Hz)."))
        }
        return .success(seconds)
    }
}

/// Why `--gyro-delay` was refused, as one sentence.
struct GyroDelayOptionError: Error, CustomStringConvertible {
    let description: String
}
