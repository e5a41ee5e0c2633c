import ControlProtocol
import TaskModel

extension ControlRoutes {
    /// The server's own methods (`rpc.discover`, `events.subscribe|unsubscribe`) and the
    /// handler's, checked: the table the server answers from.
    static func serving(_ handler: any ControlHandler, registry: ControlConnectionRegistry,
                        discovery: JSONValue) throws(ControlRoutesError) -> ControlRoutes {
        var routes = ControlRoutes()
        routes.answerAtOnce(ControlMethods.rpcDiscover) { _, _ in DiscoveryDocument(discovery) }
        routes.answerAtOnce(ControlMethods.eventsSubscribe) { params, context in
            registry.setSubscription(context.connection, subscribed: true, kinds: params.kinds)
            return Subscription(subscribed: true, kinds: params.kinds)
        }
        routes.answerAtOnce(ControlMethods.eventsUnsubscribe) { _, context in
            registry.setSubscription(context.connection, subscribed: false, kinds: nil)
            return Subscription(subscribed: false)
        }
        handler.registerHandlers(on: &routes)
        try routes.check()
        return routes
    }
}
