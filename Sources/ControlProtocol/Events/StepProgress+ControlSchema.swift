public import TaskNavigation

/// The navigator's progress goes on the wire as it is (`stepShown.progress`).
extension StepProgress: ControlSchemaDescribing {
    public static var schema: JSONSchema {
        .object([.init("current", .integer(minimum: 0)), .init("total", .integer(minimum: 0)),
                 .init("isEstimated", .boolean)], required: ["current", "total", "isEstimated"])
    }
}
