/// The serialized `type` of a result, with SageResearch's names.
public struct ResultType: ExtensibleName {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let base = ResultType(rawValue: "base")
    public static let answer = ResultType(rawValue: "answer")
    public static let collection = ResultType(rawValue: "collection")
    public static let file = ResultType(rawValue: "file")
    public static let error = ResultType(rawValue: "error")
    public static let navigation = ResultType(rawValue: "navigation")
    public static let task = ResultType(rawValue: "task")
    public static let section = ResultType(rawValue: "section")
    /// MotorControl's tapping result (`MCTTappingResultObject`).
    public static let tapping = ResultType(rawValue: "tapping")
}
