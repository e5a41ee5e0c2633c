import Foundation

extension JSONValue {
    /// The JSON value `value` encodes to (dates as SageResearch timestamps).
    public static func encoding(_ value: some Encodable) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = Timestamp.encodingStrategy
        let data = try encoder.encode(value)
        return try JSONDecoder().decode(JSONValue.self, from: data)
    }
}
