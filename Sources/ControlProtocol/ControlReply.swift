public import TaskModel
/// What the daemon's handler answers a command with.
public enum ControlReply: Sendable, Hashable {
    case daemonInfo(DaemonInfo)
    case devices(DeviceList)
    case loadedTask(LoadedTask)
    case status(SessionStatus)
    case runs(RunList)
    case result(RunResult)
    case archive(ArchiveLocation)
    case quality(RunQualityResult)
    case report(ReportLocation)

    /// The result's JSON (written directly, without Foundation's JSON text in between).
    public func jsonValue() throws -> JSONValue {
        switch self {
        case .daemonInfo(let value): try JSONValueEncoder.encode(value)
        case .devices(let value): try JSONValueEncoder.encode(value)
        case .loadedTask(let value): try JSONValueEncoder.encode(value)
        case .status(let value): try JSONValueEncoder.encode(value)
        case .runs(let value): try JSONValueEncoder.encode(value)
        case .result(let value): try JSONValueEncoder.encode(value)
        case .archive(let value): try JSONValueEncoder.encode(value)
        case .quality(let value): try JSONValueEncoder.encode(value)
        case .report(let value): try JSONValueEncoder.encode(value)
        }
    }

    /// True when this is the result type `method` documents.
    public func answers(_ method: ControlMethod) -> Bool {
        switch self {
        case .daemonInfo: method.returns(DaemonInfo.self)
        case .devices: method.returns(DeviceList.self)
        case .loadedTask: method.returns(LoadedTask.self)
        case .status: method.returns(SessionStatus.self)
        case .runs: method.returns(RunList.self)
        case .result: method.returns(RunResult.self)
        case .archive: method.returns(ArchiveLocation.self)
        case .quality: method.returns(RunQualityResult.self)
        case .report: method.returns(ReportLocation.self)
        }
    }
}

extension ControlMethod {
    /// True when the method's result type is `type`.
    func returns(_ type: any ControlSchemaDescribing.Type) -> Bool {
        resultType.map { ObjectIdentifier($0) == ObjectIdentifier(type) } ?? false
    }
}
