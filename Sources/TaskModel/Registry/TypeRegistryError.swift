/// A type alias whose target is not a type the registry knows.
public struct TypeRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var alias: String
    public var target: String

    public init(alias: String, target: String) {
        self.alias = alias
        self.target = target
    }

    public var description: String {
        "The type alias \"\(alias)\" points at \"\(target)\", which is not a known step, task or async action type; "
            + "use one of: \(StepKind.allCases.filter { $0 != .ui }.map(\.rawValue).joined(separator: ", ")), assessment, motion, microphone, distance."
    }
}
