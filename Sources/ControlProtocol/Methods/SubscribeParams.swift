/// `events.subscribe`: which event kinds to receive (all when absent).
public struct SubscribeParams: Sendable, Hashable, ControlParams {
    public var kinds: [ControlEventKind]?

    public init(kinds: [ControlEventKind]? = nil) {
        self.kinds = kinds
    }

    /// Left out: every kind.
    public static var whenAbsent: SubscribeParams? { SubscribeParams() }

    public static var schema: JSONSchema {
        .object([.init("kinds", .array(.reference(to: ControlEventKind.self)))], required: [])
    }
}

/// The result of `events.subscribe` and `events.unsubscribe`.
public struct Subscription: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    public var subscribed: Bool
    /// The kinds this connection receives; absent for all.
    public var kinds: [ControlEventKind]?

    public init(subscribed: Bool, kinds: [ControlEventKind]? = nil) {
        self.subscribed = subscribed
        self.kinds = kinds
    }

    public static var schema: JSONSchema {
        .object([.init("subscribed", .boolean), .init("kinds", .array(.reference(to: ControlEventKind.self)))],
                required: ["subscribed"])
    }
}
