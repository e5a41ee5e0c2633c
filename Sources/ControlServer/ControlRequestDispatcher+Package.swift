import ControlProtocol
package import Logging

extension ControlRequestDispatcher {
    /// The dispatcher `ControlServer.run()` builds, for a caller in this package that feeds it
    /// frames without a socket: the `fuzz-rpc` target (docs/fuzzing.md).
    package init(handler: any ControlHandler, registry: ControlConnectionRegistry, logger: Logger, maximumLineLength: Int) {
        self.init(handler: handler, registry: registry, logger: logger, maximumLineLength: maximumLineLength,
                  discovery: OpenRPCDocument.document)
    }
}
