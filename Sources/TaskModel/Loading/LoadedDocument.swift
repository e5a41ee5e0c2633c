/// A decoded task file with its transforms resolved and checked, plus the warnings found.
public struct LoadedDocument: Sendable {
    public var document: TaskDocument
    public var warnings: [TaskWarning]

    public init(document: TaskDocument, warnings: [TaskWarning]) {
        self.document = document
        self.warnings = warnings
    }
}
