public import IIO

/// Why a motion source could not open, start or keep delivering samples.
public struct MotionSourceError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for callers that react differently.
    public enum Kind: Sendable, Hashable {
        /// The URI names no context that can be opened.
        case cannotOpen
        /// A sensor the recording needs is not there.
        case missingSensor
        /// The device failed or disappeared while recording.
        case deviceGone
        /// The device stopped delivering samples.
        case stalled
        /// The device delivers samples far faster or slower than its configured rate
        /// (docs/audio.md, "Devices that do not keep time").
        case wrongRate
        /// Configuring the device failed.
        case configuration
        /// A reader thread did not end within the deadline (the device hangs).
        case timedOut
    }

    /// What went wrong.
    public var kind: Kind
    /// A full sentence saying what happened and what to do.
    public var message: String
    /// The libiio error behind it, if any.
    public var underlying: IIOError?

    /// An error of `kind` with a full-sentence `message`.
    public init(_ kind: Kind, _ message: String, underlying: IIOError? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
    }

    public var description: String { message }
}
