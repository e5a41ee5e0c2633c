/// The control socket's handler table is incomplete or ambiguous: a bug in the daemon, said
/// before the socket listens.
public struct ControlRoutesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Declared methods nobody handles.
    public var missing: [String]
    /// Methods registered more than once.
    public var duplicates: [String]
    /// Methods handled but not in `ControlMethods.all`.
    public var undeclared: [String]

    public init(missing: [String], duplicates: [String], undeclared: [String]) {
        self.missing = missing
        self.duplicates = duplicates
        self.undeclared = undeclared
    }

    public var description: String {
        var parts: [String] = []
        if !missing.isEmpty { parts.append("no handler is registered for \(missing.joined(separator: ", ")); register one in the handler's registerHandlers(on:)") }
        if !duplicates.isEmpty { parts.append("\(duplicates.joined(separator: ", ")) \(duplicates.count == 1 ? "is" : "are") registered more than once; keep one handler each") }
        if !undeclared.isEmpty { parts.append("\(undeclared.joined(separator: ", ")) \(undeclared.count == 1 ? "has" : "have") a handler but no entry in ControlMethods.all; add the declaration there") }
        return "The control socket's handlers do not match its methods: " + parts.joined(separator: "; ") + "."
    }
}
