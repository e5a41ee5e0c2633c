public import AsyncActions
public import Audio
public import Motion
import MotionFusion
import TaskModel

extension AsyncActionControllerRegistry {
    /// The built-in controllers: `motion` on the sensors `motion` names (with the sensor-fusion
    /// stage for device-motion types, compensating `motion.gyroDelay`) and `microphone` on the
    /// capture PCM `microphone` names. Each factory keeps its settings for every controller it
    /// makes. `distance` and every other type get the unsupported controller.
    public static func builtIn(
        motion: MotionDeviceSettings = MotionDeviceSettings(), microphone: MicrophoneSettings = MicrophoneSettings()
    ) -> AsyncActionControllerRegistry {
        var registry = AsyncActionControllerRegistry()
        let fusion = DeviceMotionEstimator.Settings(gyroDelay: motion.gyroDelay)
        registry.register(.motion, as: MotionRecorderConfiguration.self) { configuration, output in
            MotionRecorder(
                configuration: configuration, output: output, settings: motion,
                fusion: DeviceMotionFusion(settings: fusion))
        }
        registry.register(.microphone, as: AudioRecorderConfiguration.self) { configuration, output in
            MicrophoneRecorder(configuration: configuration, output: output, settings: microphone)
        }
        return registry
    }
}
