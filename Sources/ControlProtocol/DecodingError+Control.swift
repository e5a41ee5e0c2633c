import TaskModel

extension DecodingError {
    /// The coding path (`answers[0].identifier`) and a reason a person can act on.
    public var controlDescription: (codingPath: String, reason: String) {
        switch self {
        case .typeMismatch(let type, let context):
            (Self.path(context.codingPath), "expected \(Self.describe(type)); \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            (Self.path(context.codingPath), "expected \(Self.describe(type)) but found null.")
        case .keyNotFound(let key, let context):
            (Self.path(context.codingPath + [key]), "this member is required and missing.")
        case .dataCorrupted(let context):
            (Self.path(context.codingPath), context.debugDescription)
        @unknown default:
            ("", String(describing: self))
        }
    }

    /// `a.b[2].c` from a coding path; empty for the params object itself.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "" : CodingPath.string(codingPath)
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is UInt64.Type: "an integer"
        case is Double.Type: "a number"
        default: "\(type)"
        }
    }
}
