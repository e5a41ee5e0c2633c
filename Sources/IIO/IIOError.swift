/// A libiio call that failed, with libiio's own message for its error code.
public struct IIOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The positive errno value libiio returned (negated).
    public var code: Int32
    /// What was being done, for example `refill the buffer of iio:device0`.
    public var operation: String
    /// libiio's message for `code` (`iio_strerror`, which ends with the number).
    public var reason: String

    /// An error for `code` (positive errno) while doing `operation`, with libiio's `reason`.
    public init(code: Int32, operation: String, reason: String) {
        self.code = code
        self.operation = operation
        self.reason = reason
    }

    public var description: String {
        "Could not \(operation): \(reason). \(advice)"
    }

    /// What a person can do about this error.
    public var advice: String {
        switch code {
        case 2: "Check that the device exists (activetaskctl sensors lists what libiio finds)."
        case 13, 1: "Run with permission to write the device's sysfs attributes and read /dev/iio:deviceN (udev rule or group)."
        case 16: "Another program is using the device's buffer; stop it and try again."
        case 19, 6: "The device is gone (unplugged or its driver unloaded); reconnect it and start again."
        case 110: "The device sent no data in time; check its trigger and sampling frequency."
        case 111, 113, 101: "Check that iiod runs on the remote board and that the network reaches it."
        default: "Check the device with iio_info and the kernel log."
        }
    }

    /// True when the error means the device itself is gone.
    public var isDeviceGone: Bool { code == 19 || code == 6 || code == 2 }

    /// True when the call only timed out or would block, so it can simply be retried.
    public var isTimeout: Bool { code == 110 || code == 11 }
}
