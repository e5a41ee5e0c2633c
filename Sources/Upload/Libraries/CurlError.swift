/// A libcurl transfer that failed before an HTTP response arrived, with libcurl's own message.
public struct CurlError: Error, CustomStringConvertible, Sendable, Hashable {
    /// libcurl's `CURLcode`.
    public var code: Int
    /// What was being done ("PUT https://…").
    public var operation: String
    /// libcurl's message.
    public var reason: String

    /// Whether trying again later can succeed: a network that is down, a reset, a time-out or a
    /// stalled transfer, as opposed to a malformed URL, a certificate that does not verify or an
    /// archive that cannot be read.
    public var isTransient: Bool {
        // CURLE_COULDNT_RESOLVE_PROXY 5, _HOST 6, COULDNT_CONNECT 7, HTTP2 16, PARTIAL_FILE 18,
        // OPERATION_TIMEDOUT 28, SSL_CONNECT_ERROR 35, GOT_NOTHING 52, SEND_ERROR 55,
        // RECV_ERROR 56, HTTP2_STREAM 92, HTTP3 95.
        [5, 6, 7, 16, 18, 28, 35, 52, 55, 56, 92, 95].contains(code)
    }

    public var description: String {
        let advice = isTransient
            ? "It is tried again later; check the network and the endpoint if it persists."
            : "Check the endpoint, the CA file and the archive's permissions in the upload configuration."
        return "Could not \(operation): \(reason) (libcurl error \(code)). \(advice)"
    }
}
