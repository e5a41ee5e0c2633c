public import TaskModel
/// A request the daemon's handler carries out, its params decoded.
public enum ControlCommand: Sendable, Hashable {
    case daemonInfo
    case devicesList
    case taskLoad(TaskLoadParams)
    case runStart
    case runForward(ForwardParams)
    case runBack
    case runSkip
    case runAbandon
    case timerStart
    case timerPause
    case timerResume
    case permissionAnswer(PermissionAnswerParams)
    case runCancel(CancelParams)
    case runResume(RunReference)
    case runStatus
    case runsList
    case runResult(RunReference)
    case runArchive(RunReference)
    case runQuality(RunReference)
    case runReport(RunReference)

    /// The method this command came as.
    public var method: ControlMethod {
        switch self {
        case .daemonInfo: .daemonInfo
        case .devicesList: .devicesList
        case .taskLoad: .taskLoad
        case .runStart: .runStart
        case .runForward: .runForward
        case .runBack: .runBack
        case .runSkip: .runSkip
        case .runAbandon: .runAbandon
        case .timerStart: .timerStart
        case .timerPause: .timerPause
        case .timerResume: .timerResume
        case .permissionAnswer: .permissionAnswer
        case .runCancel: .runCancel
        case .runResume: .runResume
        case .runStatus: .runStatus
        case .runsList: .runsList
        case .runResult: .runResult
        case .runArchive: .runArchive
        case .runQuality: .runQuality
        case .runReport: .runReport
        }
    }

    /// The params as JSON, for a client building a request.
    public var params: JSONValue? {
        switch self {
        case .taskLoad(let params): try? JSONValue.encoding(params)
        case .runForward(let params): try? JSONValue.encoding(params)
        case .permissionAnswer(let params): try? JSONValue.encoding(params)
        case .runCancel(let params): try? JSONValue.encoding(params)
        case .runResume(let params), .runResult(let params), .runArchive(let params), .runQuality(let params),
             .runReport(let params): try? JSONValue.encoding(params)
        default: nil
        }
    }
}

extension ControlCommand {
    /// Decodes a request's params for `method` (a method the handler answers).
    /// Throws `invalidParams` naming the coding path when they do not fit.
    public init(method: ControlMethod, params: JSONValue?) throws(ControlError) {
        switch method {
        case .daemonInfo: try Self.expectNoParams(params, method); self = .daemonInfo
        case .devicesList: try Self.expectNoParams(params, method); self = .devicesList
        case .taskLoad:
            let load = try Self.decodeParams(TaskLoadParams.self, params, method)
            guard (load.path == nil) != (load.task == nil) else {
                throw ControlError(.invalidParams, "task.load takes either `path` or `task`, not both and not neither.",
                                   data: ControlErrorData(codingPath: load.path == nil ? "path" : "task", method: method.rawValue))
            }
            self = .taskLoad(load)
        case .runStart: try Self.expectNoParams(params, method); self = .runStart
        case .runForward: self = .runForward(try params == nil ? ForwardParams() : Self.decodeParams(ForwardParams.self, params, method))
        case .runBack: try Self.expectNoParams(params, method); self = .runBack
        case .runSkip: try Self.expectNoParams(params, method); self = .runSkip
        case .runAbandon: try Self.expectNoParams(params, method); self = .runAbandon
        case .timerStart: try Self.expectNoParams(params, method); self = .timerStart
        case .timerPause: try Self.expectNoParams(params, method); self = .timerPause
        case .timerResume: try Self.expectNoParams(params, method); self = .timerResume
        case .permissionAnswer: self = .permissionAnswer(try Self.decodeParams(PermissionAnswerParams.self, params, method))
        case .runCancel: self = .runCancel(try Self.decodeParams(CancelParams.self, params, method))
        case .runResume: self = .runResume(try Self.decodeParams(RunReference.self, params, method))
        case .runStatus: try Self.expectNoParams(params, method); self = .runStatus
        case .runsList: try Self.expectNoParams(params, method); self = .runsList
        case .runResult: self = .runResult(try Self.decodeParams(RunReference.self, params, method))
        case .runArchive: self = .runArchive(try Self.decodeParams(RunReference.self, params, method))
        case .runQuality: self = .runQuality(try Self.decodeParams(RunReference.self, params, method))
        case .runReport: self = .runReport(try Self.decodeParams(RunReference.self, params, method))
        case .eventsSubscribe, .eventsUnsubscribe, .rpcDiscover:
            throw ControlError(.internalError, "\(method.rawValue) is answered by the server, not the daemon's handler.")
        }
    }

    private static func expectNoParams(_ params: JSONValue?, _ method: ControlMethod) throws(ControlError) {
        switch params {
        case nil, .object([:])?, .array([])?: return
        default:
            throw ControlError(.invalidParams, "\(method.rawValue) takes no params; send {} or leave params out.",
                               data: ControlErrorData(codingPath: "", method: method.rawValue))
        }
    }

    /// Decodes by-name params as `type`; throws `invalidParams` naming the coding path.
    public static func decodeParams<T: Decodable>(_ type: T.Type, _ params: JSONValue?, _ method: ControlMethod) throws(ControlError) -> T {
        guard let params, case .object = params else {
            throw ControlError(.invalidParams, "\(method.rawValue) takes its params by name, as a JSON object.",
                               data: ControlErrorData(codingPath: "", method: method.rawValue))
        }
        do {
            return try params.decode(type)
        } catch let error as DecodingError {
            let (path, reason) = error.controlDescription
            throw ControlError(.invalidParams, "\(method.rawValue): \(path.isEmpty ? "params" : path): \(reason)",
                               data: ControlErrorData(codingPath: path, method: method.rawValue))
        } catch {
            throw ControlError(.invalidParams, "\(method.rawValue): \(error)", data: ControlErrorData(method: method.rawValue))
        }
    }
}
