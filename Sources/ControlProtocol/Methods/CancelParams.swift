/// `run.cancel`: stop the run, keeping it resumable (`save: true`) or discarding it.
public struct CancelParams: Sendable, Hashable, ControlParams {
    public var save: Bool

    public init(save: Bool) {
        self.save = save
    }

    public static var schema: JSONSchema {
        .object([.init("save", .described("True keeps the run resumable; false discards it.", .boolean))],
                required: ["save"])
    }
}
