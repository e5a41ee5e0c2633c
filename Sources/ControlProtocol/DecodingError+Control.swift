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
            // Foundation's text (an unknown enum value, a bad number) is no sentence and says
            // nothing of what to do (found by fuzz-rpc, docs/fuzzing.md).
            (Self.path(context.codingPath),
             "\(context.debugDescription.trimmingSuffix(".")); use a value the method's params allow (rpc.discover lists them).")
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

private extension String {
    func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self[...]
    }
}
