import ALSA
import CommandOutput

/// `activetaskctl devices --local`: the audio devices ALSA knows on this machine, with what each
/// accepts (no daemon needed).
public enum LocalDeviceListing {
    public static func print(json: Bool, probe: Bool, verbose: Bool) throws {
        let logger = CommandLogging.logger(label: "activetaskctl.devices", verbose: verbose)
        let devices = try AudioDevices.list(probe: probe, logger: logger)
        if json {
            try JSONOutput.print(["audio": devices])
            return
        }
        for device in devices {
            Swift.print("\(device.name)\t\(device.description)")
            for capability in device.capabilities {
                if let error = capability.error {
                    Swift.print("    \(capability.direction.rawValue): unavailable (\(error))")
                } else {
                    let rates = "\(capability.minimumRate ?? 0)–\(capability.maximumRate ?? 0) Hz"
                    let channels = "\(capability.minimumChannels ?? 0)–\(capability.maximumChannels ?? 0) ch"
                    let formats = capability.formats.map(\.rawValue).joined(separator: ",")
                    Swift.print("    \(capability.direction.rawValue): \(rates), \(channels), \(formats)")
                }
            }
        }
    }
}
