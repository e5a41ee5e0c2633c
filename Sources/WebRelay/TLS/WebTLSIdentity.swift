/// The certificate and private key `activetask-web` encrypts with (docs/kiosk.md, "TLS"),
/// loaded and checked once at start.
public struct WebTLSIdentity: Sendable {
    let context: LibSSL.ServerContext

    /// Loads a PEM certificate chain (the server's certificate first) and its unencrypted PEM
    /// private key; throws with OpenSSL's reason when either cannot be used or they do not match.
    public init(certificateChain: String, privateKey: String) throws(WebRelayError) {
        context = try LibSSL.ServerContext(certificateChain: certificateChain, privateKey: privateKey)
    }

    /// The DNS names and addresses the certificate is valid for: the names a browser may use.
    public var names: [String] { context.names }
}
