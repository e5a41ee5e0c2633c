import NIOConcurrencyHelpers

/// The access policy, set once the listening ports are known and read by each new connection.
final class PolicyBox: Sendable {
    private let lock = NIOLockedValueBox(WebAccessPolicy(token: "", authorities: []))

    var policy: WebAccessPolicy {
        get { lock.withLockedValue { $0 } }
        set { lock.withLockedValue { $0 = newValue } }
    }
}
