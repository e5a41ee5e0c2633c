import ControlProtocol
package import Logging

extension ControlRequestDispatcher {
    /// The dispatcher `ControlServer.run()` builds, for a caller in this package that feeds it
    /// frames without a socket: the `fuzz-rpc` target (docs/fuzzing.md). Traps when the
    /// handler's table is incomplete, as the server would refuse to start.
    package init(handler: any ControlHandler, registry: ControlConnectionRegistry, logger: Logger, maximumLineLength: Int) {
        do {
            self.init(routes: try ControlRoutes.serving(handler, registry: registry, discovery: OpenRPCDocument.document),
                      logger: logger, maximumLineLength: maximumLineLength)
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
