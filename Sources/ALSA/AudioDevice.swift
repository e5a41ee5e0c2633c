/// A PCM found by `AudioDevices.list()`, with what probing it showed.
public struct AudioDevice: Sendable, Hashable, Codable {
    /// The name to open (`default`, `hw:CARD=PCH,DEV=0`, `pulse`, an asoundrc PCM).
    public var name: String
    /// ALSA's description, lines joined with " / ".
    public var description: String
    /// The directions the hint declares (both when it declares none).
    public var directions: [PCMDirection]
    /// What opening it in each direction showed.
    public var capabilities: [DeviceCapabilities]

    public init(name: String, description: String, directions: [PCMDirection], capabilities: [DeviceCapabilities]) {
        self.name = name
        self.description = description
        self.directions = directions
        self.capabilities = capabilities
    }
}
