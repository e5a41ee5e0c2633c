import Foundation
public import TaskModel

extension JSONValue {
    /// Decodes this JSON as `type`.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: JSONEncoder().encode(self))
    }
}
