/// A libcrypto call that failed, with OpenSSL's own message.
public struct CryptoError: Error, CustomStringConvertible, Sendable {
    /// What was being done ("compute an MD5 digest").
    public var operation: String
    /// OpenSSL's error string, or a description when OpenSSL queued none.
    public var reason: String
    /// What to do about it; nil for the general advice about libcrypto itself.
    public var advice: String?

    public init(operation: String, reason: String, advice: String? = nil) {
        self.operation = operation
        self.reason = reason
        self.advice = advice
    }

    public var description: String {
        "Could not \(operation): \(reason). "
            + (advice ?? "Check that OpenSSL's libcrypto (libssl3) is installed and not restricted by a FIPS policy that refuses the algorithm.")
    }
}
