public import Foundation

/// A step as the task result records it: shown from `startDate` to `endDate`.
public struct StepSpan: Sendable, Hashable {
    /// The step path inside the task (`section/step`), as motion markers write it without the
    /// task identifier.
    public var stepPath: String
    public var identifier: String
    public var startDate: Date
    public var endDate: Date?
    /// The step's timer in seconds when the task copy in the run directory gives one.
    public var duration: Double?

    public init(stepPath: String, identifier: String, startDate: Date, endDate: Date?, duration: Double? = nil) {
        self.stepPath = stepPath
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.duration = duration
    }
}
