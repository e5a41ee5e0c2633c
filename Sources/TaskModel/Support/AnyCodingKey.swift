/// A coding key made from any string or index, for reading objects whose keys are open-ended.
public struct AnyCodingKey: CodingKey, Hashable, Sendable {
    public var stringValue: String
    public var intValue: Int?

    public init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    public init(stringValue: String) { self.init(stringValue) }

    public init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}
