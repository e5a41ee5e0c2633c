import ALSA
import ArgumentParser
import ControlProtocol
import Foundation

/// `activetaskctl devices`: the motion and audio devices the daemon can use (devices.list), or
/// with `--local` the audio devices ALSA knows on this machine, with what each accepts (no
/// daemon needed).
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the daemon's motion and audio devices (--local: this machine's ALSA devices).")

    @OptionGroup var connection: SocketOptions

    @Flag(help: "List ALSA devices here, without the daemon.")
    var local = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(name: .customLong("no-probe"), help: "Only list names; do not open the devices.")
    var noProbe = false

    @Flag(help: "Log debug details to standard error.")
    var verbose = false

    func run() async throws {
        guard local else {
            let list = try await connection.withClient { try await $0.call(.devicesList, as: DeviceList.self) }
            if json {
                try JSONOutput.print(list)
                return
            }
            for device in list.motion {
                print("motion\t\(device.identifier)\t\(device.name)\t\(device.sensors.joined(separator: ","))")
            }
            for device in list.audio {
                let directions = [device.capture ? "capture" : nil, device.playback ? "playback" : nil].compactMap { $0 }
                print("audio\t\(device.name)\t\(directions.joined(separator: ","))\t\(device.description)")
            }
            return
        }
        let logger = CommandLogging.logger(label: "activetaskctl.devices", verbose: verbose)
        let devices = try AudioDevices.list(probe: !noProbe, logger: logger)
        if json {
            try JSONOutput.print(["audio": devices])
            return
        }
        for device in devices {
            print("\(device.name)\t\(device.description)")
            for capability in device.capabilities {
                if let error = capability.error {
                    print("    \(capability.direction.rawValue): unavailable (\(error))")
                } else {
                    let rates = "\(capability.minimumRate ?? 0)–\(capability.maximumRate ?? 0) Hz"
                    let channels = "\(capability.minimumChannels ?? 0)–\(capability.maximumChannels ?? 0) ch"
                    let formats = capability.formats.map(\.rawValue).joined(separator: ",")
                    print("    \(capability.direction.rawValue): \(rates), \(channels), \(formats)")
                }
            }
        }
    }
}
