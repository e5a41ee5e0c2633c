public import TaskModel

/// Which controller runs each kind of async action, keyed by the configuration's `type`
/// (SageResearch's `asyncActionController(for:)`, open to an embedding program).
///
/// A type nothing is registered for, or a configuration whose Swift type is not the one its
/// factory expects, gets an `UnsupportedAsyncActionController`: its permission fails with
/// `unsupported` and a clear `<identifier>_error` result, and the task goes on.
///
/// A factory captures the settings of its device (a URI, a PCM, deadlines) when it is
/// registered, so this module names no device (docs/async-actions.md, "The registry").
public struct AsyncActionControllerRegistry: Sendable {
    /// Creates the controller of one configuration for one run.
    public typealias Factory = @Sendable (any AsyncActionConfiguration, RecorderOutput) -> any AsyncActionController

    private var factories: [AsyncActionType: Factory] = [:]

    /// An empty registry: every type is unsupported.
    public init() {}

    /// Registers (or replaces) the factory of `type`.
    public mutating func register(_ type: AsyncActionType, factory: @escaping Factory) {
        factories[type] = factory
    }

    /// Registers the factory of `type` for configurations decoded as `Configuration`; any other
    /// configuration of that type gets the unsupported controller.
    public mutating func register<Configuration: AsyncActionConfiguration>(
        _ type: AsyncActionType, as _: Configuration.Type,
        factory: @escaping @Sendable (Configuration, RecorderOutput) -> any AsyncActionController
    ) {
        factories[type] = { configuration, output in
            guard let typed = configuration as? Configuration else {
                return UnsupportedAsyncActionController(
                    configuration: configuration,
                    reason: "The async action \(configuration.identifier) of type \(type) was decoded as \(Swift.type(of: configuration)), but its controller needs \(Configuration.self); register the type's decoder and controller together.")
            }
            return factory(typed, output)
        }
    }

    /// Whether a controller is registered for `type`.
    public func supports(_ type: AsyncActionType) -> Bool {
        factories[type] != nil
    }

    /// The types with a registered controller.
    public var supportedTypes: [AsyncActionType] {
        factories.keys.sorted { $0.rawValue < $1.rawValue }
    }

    /// A new controller for `configuration`; the unsupported controller when nothing is
    /// registered for its type.
    public func makeController(
        for configuration: any AsyncActionConfiguration, output: RecorderOutput
    ) -> any AsyncActionController {
        if let factory = factories[configuration.asyncActionType] {
            return factory(configuration, output)
        }
        let supported = supportedTypes.map(\.rawValue).joined(separator: ", ")
        return UnsupportedAsyncActionController(
            configuration: configuration,
            reason: "The async action \(configuration.identifier) of type \(configuration.asyncActionType) is not supported on this device (supported: \(supported.isEmpty ? "none" : supported)); the task goes on without it.")
    }
}
