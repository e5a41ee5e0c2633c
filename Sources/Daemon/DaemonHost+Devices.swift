import ALSA
import BlockingCalls
import ControlProtocol
import Foundation
import Motion

/// `devices.list`: the motion and sound devices the daemon can open.
extension DaemonHost {
    func devices() async throws -> DeviceList {
        let uri = settings.devices.iioURI
        let logger = logger
        let motion: [DeviceList.MotionDevice] = (try? await BlockingCall.run("devices-motion", deadline: .seconds(10)) {
            let source = try MotionSources.open(uri: uri, logger: logger)
            return [DeviceList.MotionDevice(
                name: uri, identifier: uri, sensors: source.availableSensors.sorted().map(Self.protocolName), samplingFrequencies: [])]
        }) ?? []
        let audio: [DeviceList.AudioDevice] = (try? await BlockingCall.run("devices-audio", deadline: .seconds(10)) {
            try AudioDevices.list(probe: false, logger: logger).map {
                DeviceList.AudioDevice(name: $0.name, description: $0.description,
                                       capture: $0.directions.contains(.capture), playback: $0.directions.contains(.playback))
            }
        }) ?? []
        return DeviceList(motion: motion, audio: audio)
    }

    /// A sensor as the protocol names it (SageResearch's recorder types): the gyroscope is `gyro`.
    static func protocolName(of sensor: SensorKind) -> String {
        sensor == .gyroscope ? "gyro" : sensor.rawValue
    }
}
