import ControlChannel
import ControlProtocol
import NIOCore

/// The event kinds a connection should receive, followed from its own lines: a subscribe whose
/// params decode subscribes it (to every kind when `kinds` is absent or empty), an unsubscribe
/// ends it. A request's response must agree with what the model expected.
struct SubscriptionModel {
    /// nil: not subscribed; empty: every kind.
    private var subscription: Set<ControlEventKind>?

    /// The kinds a broadcast of every kind delivers, in `allCases` order.
    var kinds: [ControlEventKind] {
        guard let subscription else { return [] }
        return ControlEventKind.allCases.filter { subscription.isEmpty || subscription.contains($0) }
    }

    mutating func apply(_ frame: ControlFrame, response: JSONRPCResponse?) {
        guard case .line(let buffer) = frame, case .success(let incoming)? = JSONRPCLineReader.read(buffer.readableBytesView) else { return }
        let request = incoming.request
        switch request.method {
        case ControlMethods.eventsSubscribe.name:
            let params = try? ControlMethods.eventsSubscribe.decodeParams(request.params)
            if let params { subscription = Set(params.kinds ?? []) }
            guard !incoming.isNotification else { return }
            switch response?.outcome {
            case .result?: precondition(params != nil, "events.subscribe succeeded with params that do not decode.")
            case .error(let error)?: precondition(params == nil && error.code == ControlErrorCode.invalidParams.rawValue,
                                                  "events.subscribe failed with \(error.code) although its params decode.")
            case nil: preconditionFailure("events.subscribe with an id got no response.")
            }
        case ControlMethods.eventsUnsubscribe.name:
            subscription = nil
        default:
            break
        }
    }
}
