public import AsyncActions
import Audio
import Motion
import MotionFusion
import TaskModel

extension AsyncActionControllerRegistry {
    /// The built-in controllers: `motion` (with the sensor-fusion stage for device-motion types)
    /// and `microphone`. The fusion compensates the device's gyro delay (`DeviceSettings.gyroDelay`).
    /// `distance` and every other type get the unsupported controller.
    public static var builtIn: AsyncActionControllerRegistry {
        var registry = AsyncActionControllerRegistry()
        registry.register(.motion, as: MotionRecorderConfiguration.self) { configuration, output, settings in
            MotionRecorder(
                configuration: configuration, output: output, settings: settings,
                fusion: DeviceMotionFusion(settings: DeviceMotionEstimator.Settings(gyroDelay: settings.gyroDelay)))
        }
        registry.register(.microphone, as: AudioRecorderConfiguration.self) { configuration, output, settings in
            MicrophoneRecorder(configuration: configuration, output: output, settings: MicrophoneSettings(settings))
        }
        return registry
    }
}
