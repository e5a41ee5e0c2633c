/// Where a motion source delivers converted samples, from its reader threads.
public protocol MotionSampleSink: AnyObject, Sendable {
    /// A batch of samples in time order per sensor. The buffer is only valid during the call.
    func receive(_ samples: UnsafeBufferPointer<MotionSample>)

    /// A fact about the data a reader must know (derived timestamps, a clock conversion).
    func note(_ text: String)

    /// The source failed for good; it sends nothing more.
    func sourceFailed(_ error: MotionSourceError)
}
