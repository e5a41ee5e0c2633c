/// `permission.answer`: the person's answer to a `permissionRequest` event.
public struct PermissionAnswerParams: Sendable, Hashable, ControlParams {
    /// The `requestID` of the `permissionRequest` event.
    public var requestID: UInt64
    public var granted: Bool

    public init(requestID: UInt64, granted: Bool) {
        self.requestID = requestID
        self.granted = granted
    }

    public static var schema: JSONSchema {
        .object([.init("requestID", .integer(minimum: 0)), .init("granted", .boolean)],
                required: ["requestID", "granted"])
    }
}
