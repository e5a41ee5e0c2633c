public import ControlProtocol
import Foundation

/// What a browser tab may ask the daemon through the relay: the methods a participant's screen
/// uses and nothing else (docs/kiosk.md, "What a tab may do"). Every other method, and a
/// `task.load` that names anything but a task file of the task directory by its relative name,
/// is answered by the relay itself with a JSON-RPC error naming the method, and never reaches
/// the daemon. Pure: the relay hands each browser message in and acts on the verdict.
///
/// The line is read with the daemon's own reader (`JSONRPCLineReader`), so the method judged
/// here is the method the daemon would carry out.
public enum KioskMethodPolicy {
    /// The methods a participant's screen calls (Assets/js): list the tasks, load one by name,
    /// run it, answer permissions, read task images and resources, follow the run's events.
    /// Never another run's results, archives, reports or the list of runs.
    public static let allowed: [any ControlMethodDescribing] = [
        ControlMethods.tasksList, ControlMethods.tasksImage, ControlMethods.tasksResource,
        ControlMethods.taskLoad, ControlMethods.runStart, ControlMethods.runStatus,
        ControlMethods.runForward, ControlMethods.runBack, ControlMethods.runSkip, ControlMethods.runCancel,
        ControlMethods.timerStart, ControlMethods.timerPause, ControlMethods.timerResume,
        ControlMethods.permissionAnswer, ControlMethods.eventsSubscribe, ControlMethods.eventsUnsubscribe,
    ]

    private static let allowedNames = Set(allowed.map(\.name))

    /// What the relay does with one browser message.
    public enum Verdict: Equatable, Sendable {
        /// Send the message to the daemon as it is.
        case forward
        /// Send this line (a JSON-RPC error, with its `\n`) back to the browser instead.
        case answer([UInt8])
        /// A refused notification (no `id`): nothing is sent either way, as JSON-RPC says.
        case drop
    }

    /// Judges one message (its text, without a line break).
    public static func judge(_ message: some Collection<UInt8>) -> Verdict {
        guard let read = JSONRPCLineReader.read(message) else { return .forward }
        return judge(read)
    }

    /// Judges one message as the daemon's reader read it (the relay reads each message once).
    public static func judge(_ read: Result<JSONRPCLineReader.Incoming, JSONRPCLineReader.Refusal>) -> Verdict {
        switch read {
        case .failure(let refusal):
            return answer(refusal.error, id: refusal.id)
        case .success(let incoming):
            guard let error = refusal(of: incoming.request) else { return .forward }
            return incoming.isNotification ? .drop : answer(error, id: incoming.request.id)
        }
    }

    /// Why `request` may not go through, or nil when it may.
    static func refusal(of request: JSONRPCRequest) -> ControlError? {
        guard allowedNames.contains(request.method) else {
            return ControlError(
                .methodNotFound,
                "\(request.method) is not open to a kiosk tab; a tab may call \(allowed.map(\.name).joined(separator: ", ")). Use activetaskctl on the device for the rest.",
                data: ControlErrorData(codingPath: "method", method: request.method))
        }
        guard request.method == ControlMethods.taskLoad.name else { return nil }
        let params: TaskLoadParams
        do {
            params = try ControlMethods.taskLoad.decodeParams(request.params)
        } catch {
            // The daemon words a malformed request best; it refuses it the same way.
            return nil
        }
        if params.task != nil || params.resources != nil {
            return ControlError(
                .invalidParams, "A kiosk tab loads a task of the task directory by its name (path), never inline JSON.",
                data: ControlErrorData(codingPath: params.task != nil ? "task" : "resources", method: request.method))
        }
        if let path = params.path, !TaskDirectoryPath.isPlainRelative(path) {
            return ControlError(
                .invalidParams, "\"\(path)\" is not the name of a task file in the task directory; a kiosk tab names one as tasks.list lists it (a relative path without \"..\").",
                data: ControlErrorData(codingPath: "path", method: request.method))
        }
        return nil
    }

    static func answer(_ error: ControlError, id: JSONRPCID?) -> Verdict {
        guard let line = try? JSONRPCLineWriter.line(JSONRPCResponse(id: id, error: error.errorObject)) else { return .drop }
        return .answer(line)
    }
}
