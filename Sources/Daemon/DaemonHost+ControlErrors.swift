import ControlProtocol
import Foundation
import Session

/// How a request's reference or a session's refusal reads on the socket.
extension DaemonHost {
    static func uuid(_ reference: RunReference) throws -> UUID {
        guard let uuid = UUID(uuidString: reference.taskRunUUID) else {
            throw ControlError(.invalidParams, "\"\(reference.taskRunUUID)\" is not a task run UUID; use one from runs.list.",
                               data: ControlErrorData(codingPath: "taskRunUUID"))
        }
        return uuid
    }

    /// A session's refusal as the socket says it.
    static func controlError(_ error: SessionError, method: String, state: ControlSessionState) -> ControlError {
        switch error.code {
        case .invalidState, .permissionPending:
            ControlError(.commandOutOfOrder, error.message, data: ControlErrorData(state: state.rawValue, method: method))
        case .notAllowed:
            ControlError(.actionNotAllowed, error.message, data: ControlErrorData(state: state.rawValue, method: method))
        case .invalidArgument:
            ControlError(.invalidParams, error.message, data: ControlErrorData(codingPath: error.codingPath, method: method))
        case .storageFailed:
            ControlError(.internalError, error.message, data: ControlErrorData(method: method))
        case .stepNotShown:
            ControlError.outOfOrder(method, state: "showing \(error.shownStepPath ?? "another step")",
                                    allowed: ["\(method) with stepPath \(error.shownStepPath ?? "of the step shown")"])
        }
    }
}
