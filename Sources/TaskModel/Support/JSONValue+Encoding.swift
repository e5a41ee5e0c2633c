import Foundation

extension JSONValue {
    /// The JSON value `value` encodes to (dates as SageResearch timestamps).
    public static func encoding(_ value: some Encodable) throws -> JSONValue {
        let data = try ResultCoding.makeEncoder(prettyPrinted: false).encode(value)
        return try JSONDecoder().decode(JSONValue.self, from: data)
    }
}
