import CommandOutput
import ControlProtocol

/// `activetaskctl devices` without `--local`: the motion and audio devices the daemon can use
/// (devices.list), as a table or JSON.
public enum DaemonDeviceListing {
    public static func print(from connection: SocketOptions, json: Bool) async throws {
        let list = try await connection.withClient { try await $0.call(ControlMethods.devicesList) }
        if json {
            try JSONOutput.print(list)
            return
        }
        for device in list.motion {
            Swift.print("motion\t\(device.identifier)\t\(device.name)\t\(device.sensors.joined(separator: ","))")
        }
        for device in list.audio {
            let directions = [device.capture ? "capture" : nil, device.playback ? "playback" : nil].compactMap { $0 }
            Swift.print("audio\t\(device.name)\t\(directions.joined(separator: ","))\t\(device.description)")
        }
    }
}
