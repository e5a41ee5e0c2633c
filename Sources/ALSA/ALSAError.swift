/// A libasound call that failed, with ALSA's own explanation (`snd_strerror`).
public struct ALSAError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The negative error code libasound returned (`-EPIPE`, `-ENOENT`, …).
    public var code: Int32
    /// What was being done (`open`, `set the sample rate`, `read`).
    public var operation: String
    /// The PCM name the call was about.
    public var device: String
    /// `snd_strerror(code)`.
    public var reason: String

    public init(code: Int32, operation: String, device: String, reason: String) {
        self.code = code
        self.operation = operation
        self.device = device
        self.reason = reason
    }

    public var description: String {
        "Could not \(operation) on the ALSA PCM \"\(device)\": \(reason) (error \(code)). "
            + "Check that the device exists (`activetaskctl devices`), is not busy and that this user may use it."
    }
}
