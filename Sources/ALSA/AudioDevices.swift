public import Logging

/// Lists the PCMs ALSA knows (`snd_device_name_hint`) and probes what each accepts.
public enum AudioDevices {
    /// Every PCM hint plus `default`, each probed in the directions it declares. Probing opens
    /// devices non-blocking, so a busy device reports an error instead of hanging.
    public static func list(probe: Bool = true, logger: Logger) throws(ALSAError) -> [AudioDevice] {
        // Probing absent cards makes libasound print a screenful; each failure is reported in
        // the device's capabilities instead.
        LibASound.setQuiet(true)
        defer { LibASound.setQuiet(false) }
        var hints = try LibASound.pcmHints()
        if !hints.contains(where: { $0.name == "default" }) {
            hints.insert(.init(name: "default", description: "Default ALSA device", directions: [.capture, .playback]), at: 0)
        }
        return hints.map { hint in
            AudioDevice(
                name: hint.name, description: hint.description, directions: hint.directions,
                capabilities: probe ? hint.directions.map { capabilities(of: hint.name, direction: $0, logger: logger) } : [])
        }
    }

    /// Opens `name` in `direction` and reads its rate, channel and format ranges.
    public static func capabilities(of name: String, direction: PCMDirection, logger: Logger) -> DeviceCapabilities {
        do {
            let handle = try LibASound.open(name: name, direction: direction, nonBlocking: true)
            defer { LibASound.close(handle) }
            return try LibASound.probe(handle, direction: direction, device: name)
        } catch {
            logger.debug("ALSA device could not be probed", metadata: ["device": "\(name)", "error": "\(error.reason)"])
            return DeviceCapabilities(direction: direction, error: error.reason)
        }
    }
}
