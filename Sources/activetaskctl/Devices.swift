import ALSA
import ArgumentParser
import Foundation

/// `activetaskctl devices`: the audio devices ALSA knows, with what each accepts. (The daemon
/// answers the same question over its socket and adds motion devices.)
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List audio devices with their capabilities.")

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(name: .customLong("no-probe"), help: "Only list names; do not open the devices.")
    var noProbe = false

    @Flag(help: "Log debug details to standard error.")
    var verbose = false

    func run() async throws {
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
