public import ControlProtocol
import TaskModel

/// Which run a browser tab may see and act on: its own, and no other (docs/kiosk.md, "A tab's
/// own run"). The daemon runs one run at a time and any client may drive it; through the relay a
/// tab follows only the run it started (or, after a reload, the run its tab key claimed): other
/// runs' events are not passed on, its run commands are refused while the run under way is not
/// its own, and answers naming another run (`run.status`, a `-32002`) say only that one is under
/// way. Pure: the relay hands in each request it forwards and each line from the daemon, and
/// carries out what comes back.
///
/// Every event of a run names it (`taskRunUUID`, docs/protocol.md "Events"): an event passes when
/// it names this tab's run, whatever came before it. Every run command the tab sends goes with
/// its run named, so the daemon refuses it when that run is no longer the current one, even one
/// that ended and was replaced the moment before (docs/protocol.md, "The run a command means").
public struct TabRunScope: Sendable {
    /// Where the tab stands.
    public enum State: Equatable, Sendable {
        /// The relay's own `run.status` is on its way (after connecting, or after `eventsLost`):
        /// the browser is not read until its answer.
        case probing(claim: String?)
        /// The run under way, if any, is not this tab's: nothing of it passes.
        case apart(claim: String?)
        /// This tab's `run.start` is on its way: events of runs not yet known wait for its answer
        /// (the daemon may send the new run's first events just before it), then those of the
        /// run it names pass.
        case starting(claim: String?, held: [[UInt8]])
        /// This tab's own run is the one under way.
        case following(run: String)
    }

    /// What to do after a line.
    public struct Outcome: Equatable, Sendable {
        /// Lines for the browser, in order (without their `\n`).
        public var toBrowser: [Delivery] = []
        /// Lines for the daemon (with their `\n`): the relay's own `run.status`.
        public var toDaemon: [[UInt8]] = []
        /// The run this tab now holds (its `run.start` succeeded): keep it for the tab's key.
        public var claimed: String?
        /// This tab's run ended (`taskFinished`): its key holds it no longer.
        public var ended: String?
        /// Close the tab, with this reason: the relay cannot tell any more whose lines come.
        public var close: String?

        public init(toBrowser: [Delivery] = [], toDaemon: [[UInt8]] = [], claimed: String? = nil, ended: String? = nil, close: String? = nil) {
            self.toBrowser = toBrowser
            self.toDaemon = toDaemon
            self.claimed = claimed
            self.ended = ended
            self.close = close
        }
    }

    /// One line for the browser.
    public enum Delivery: Equatable, Sendable {
        /// The daemon's line as it came.
        case original
        /// This line instead (a held event, or an answer with another run taken out).
        case line([UInt8])
    }

    /// What happens to one request from the tab.
    public enum Admission: Equatable, Sendable {
        case forward
        /// Forward this line instead (without its `\n`): a run command with the tab's run named
        /// in its params (`taskRunUUID`), for the daemon to refuse if that run is not current.
        case forwardNaming([UInt8])
        /// Answer this error instead; nil for a notification, which gets no answer.
        case refuse(ControlError?)
    }

    /// The methods that act on the run under way: only the tab whose run it is may send them.
    public static let runCommands: Set<String> = [
        ControlMethods.runForward.name, ControlMethods.runBack.name, ControlMethods.runSkip.name,
        ControlMethods.runCancel.name, ControlMethods.timerStart.name, ControlMethods.timerPause.name,
        ControlMethods.timerResume.name, ControlMethods.permissionAnswer.name,
    ]
    /// The methods whose answers may name a run (a `SessionStatus`, a `-32002`): read and judged.
    static let judgedAnswers = runCommands.union([ControlMethods.runStart.name, ControlMethods.runStatus.name, ControlMethods.taskLoad.name])
    /// The id of the relay's own `run.status`.
    public static let probeID = JSONRPCID.string("activetask-web.probe")
    /// Events waiting for the answer to `run.start`, at most, and their bytes (it brings a few).
    public static let maximumHeld = 256
    public static let maximumHeldBytes = 4 << 20
    /// Requests forwarded and not yet answered, at most: above it the browser is not read.
    public static let maximumInFlight = 1024
    static let activeStates: Set<String> = ["running", "paused", "waitingForPermission"]
    /// The code of a run command refused because its run is not the current one (or none is).
    static let notCurrentCode = JSONValue.integer(Int64(ControlErrorCode.noRunningRun.rawValue))
    /// How an event line begins: the daemon writes every message with sorted keys
    /// (`JSONRPCLineWriter`), and an answer begins with `{"error"` or `{"id"`. A line read the
    /// wrong way would not match its request's id, and closes the tab.
    static let eventPrefix = Array(#"{"jsonrpc":"2.0","method":"event""#.utf8)

    /// A request forwarded and not yet answered; the daemon answers in order (docs/protocol.md,
    /// "Transport"), so answers are matched to these first in, first out.
    struct Pending: Sendable {
        var id: JSONRPCID
        /// nil for the relay's own `run.status`.
        var method: String?
    }

    public private(set) var state: State
    private var inFlight: [Pending] = []
    private var inFlightStart = 0

    /// A tab whose key holds `claim` (its run before a reload), or nil.
    public init(claim: String?) {
        state = .apart(claim: claim)
    }

    /// Whether the browser may be read now (not while the relay asks which run is under way, nor
    /// with too many requests unanswered).
    public var readsBrowser: Bool {
        if case .probing = state { return false }
        return inFlight.count - inFlightStart < Self.maximumInFlight
    }

    /// The run this tab holds, if any.
    public var claim: String? {
        switch state {
        case .probing(let claim), .apart(let claim), .starting(let claim, _): claim
        case .following(let run): run
        }
    }

    /// Asks the daemon which run is under way (the line to send it); until the answer, the
    /// browser is not read.
    public mutating func probe() -> [UInt8] {
        state = .probing(claim: claim)
        inFlight.append(Pending(id: Self.probeID, method: nil))
        let request = JSONRPCRequest(id: Self.probeID, method: ControlMethods.runStatus.name)
        return (try? JSONRPCLineWriter.line(request)) ?? []
    }

    // MARK: Requests

    /// Judges one request the kiosk policy let through (`KioskMethodPolicy`).
    public mutating func admit(_ incoming: JSONRPCLineReader.Incoming) -> Admission {
        let request = incoming.request
        var naming: [UInt8]?
        if Self.runCommands.contains(request.method) {
            guard case .following(let own) = state else {
                return .refuse(incoming.isNotification ? nil : ControlError(
                    .noRunningRun,
                    "\(request.method) acts on the run this tab started, and this tab has none under way; a run started elsewhere is not this tab's to drive. Start a task from the list once the device is free.",
                    data: ControlErrorData(method: request.method)))
            }
            naming = Self.naming(own, in: request)
        } else if request.method == ControlMethods.runStart.name {
            switch state {
            case .starting:
                return .refuse(incoming.isNotification ? nil : ControlError(
                    .commandOutOfOrder, "This tab's run.start is already under way; wait for its answer.",
                    data: ControlErrorData(method: request.method)))
            case .apart(let claim), .probing(let claim):
                // A run.start without an id would start a run the relay never hears of.
                guard !incoming.isNotification else { return .refuse(nil) }
                state = .starting(claim: claim, held: [])
            case .following:
                break
            }
        }
        if let id = request.id, !incoming.isNotification {
            inFlight.append(Pending(id: id, method: request.method))
        }
        return naming.map(Admission.forwardNaming) ?? .forward
    }

    /// The request with `run` as its `params.taskRunUUID` (replacing any the tab put there), as a
    /// line without its `\n`; nil for params that are neither absent nor an object, which the
    /// daemon refuses as they are.
    static func naming(_ run: String, in request: JSONRPCRequest) -> [UInt8]? {
        var params: [String: JSONValue]
        switch request.params {
        case nil, .array([])?: params = [:]
        case .object(let members)?: params = members
        default: return nil
        }
        params["taskRunUUID"] = .string(run)
        guard let line = try? JSONRPCLineWriter.line(JSONRPCRequest(id: request.id, method: request.method, params: .object(params))) else {
            return nil
        }
        return Array(line.dropLast())
    }

    // MARK: Lines from the daemon

    /// Judges one line from the daemon (without its `\n`).
    public mutating func daemonLine(_ line: some Collection<UInt8>) -> Outcome {
        if line.starts(with: Self.eventPrefix) { return event(Array(line)) }
        guard inFlightStart < inFlight.count else {
            return Outcome(close: "The daemon sent an answer to no request of this tab.")
        }
        let pending = inFlight[inFlightStart]
        inFlightStart += 1
        if inFlightStart > 64, inFlightStart * 2 > inFlight.count {
            inFlight.removeFirst(inFlightStart)
            inFlightStart = 0
        }
        guard pending.method.map({ Self.judgedAnswers.contains($0) }) ?? true else {
            // A task list, image or resource piece: checked by its id's bytes only, never parsed.
            let expected = Array(#"{"id":"#.utf8) + Self.idBytes(pending.id) + [UInt8(ascii: ",")]
            if line.starts(with: expected) || line.starts(with: Array(#"{"error":"#.utf8)) {
                return Outcome(toBrowser: [.original])
            }
            return Outcome(close: "The daemon's answer does not match this tab's request \(pending.id).")
        }
        guard case .object(let response)? = JSONValueParser.parse(Array(line)), Self.id(response["id"]) == pending.id else {
            return Outcome(close: "The daemon's answer does not match this tab's request \(pending.id).")
        }
        return answer(response, to: pending)
    }

    private mutating func answer(_ response: [String: JSONValue], to pending: Pending) -> Outcome {
        var outcome = Outcome()
        let status: [String: JSONValue]? = if case .object(let result)? = response["result"] { result } else { nil }
        let run = status?["taskRunUUID"]?.stringValue
        let active = status?["state"]?.stringValue.map { Self.activeStates.contains($0) } ?? false
        guard let method = pending.method else {
            // The relay's own run.status: which run is under way, not shown to the tab.
            if let claim, run == claim, active {
                state = .following(run: claim)
            } else {
                state = .apart(claim: claim)
            }
            return outcome
        }
        if method == ControlMethods.runStart.name {
            let held: [[UInt8]] = if case .starting(_, let held) = state { held } else { [] }
            if let run, response["error"] == nil {
                state = .following(run: run)
                outcome.claimed = run
                outcome.toBrowser = [.original] + held.filter { Self.run(of: $0) == run }.map(Delivery.line)
                return outcome
            }
            if case .starting(let claim, _) = state { state = .apart(claim: claim) }
        } else if case .following(let own) = state, let run, run != own || !active {
            // The tab's own command answered with its run over, or another run under way.
            state = .apart(claim: own)
        } else if case .following(let own) = state, Self.runCommands.contains(method),
                  case .object(let error)? = response["error"], error["code"] == Self.notCurrentCode {
            // The daemon refused it: the run it names (the tab's) is not the current one.
            state = .apart(claim: own)
        }
        outcome.toBrowser = [redacted(response, method: method) ?? .original]
        return outcome
    }

    /// The answer with any other run than this tab's taken out, or nil when it names none.
    private func redacted(_ response: [String: JSONValue], method: String) -> Delivery? {
        let claim = claim
        var rewritten = response
        if case .object(let result)? = response["result"], let run = result["taskRunUUID"]?.stringValue, run != claim {
            var shown: [String: JSONValue] = ["foreignRun": .bool(true)]
            shown["state"] = result["state"]
            rewritten["result"] = .object(shown)
        } else if case .object(let error)? = response["error"], case .object(let data)? = error["data"],
                  let run = data["taskRunUUID"]?.stringValue, run != claim {
            var replaced = error
            replaced["message"] = .string(Self.runCommands.contains(method)
                ? "\(method) acts on the run this tab started, which is no longer under way; a run started elsewhere is not this tab's to drive. Start a task from the list once the device is free."
                : "A run started elsewhere is under way on this device; \(method) from this tab is refused until it has ended; try again then.")
            replaced["data"] = .object(["method": .string(method)])
            rewritten["error"] = .object(replaced)
        } else {
            return nil
        }
        var writer = JSONTextWriter()
        guard (try? writer.write(.object(rewritten))) != nil else { return nil }
        return .line(writer.bytes)
    }

    private mutating func event(_ line: [UInt8]) -> Outcome {
        guard case .object(let message)? = JSONValueParser.parse(line), case .object(let params)? = message["params"] else {
            return Outcome(close: "The daemon sent an event the relay cannot read.")
        }
        // An event of no run tells nothing of anyone's run.
        guard let run = params["taskRunUUID"]?.stringValue else { return Outcome(toBrowser: [.original]) }
        if run == claim {
            var outcome = Outcome(toBrowser: [.original])
            switch (params["kind"]?.stringValue, state) {
            case ("taskFinished", _):
                outcome.ended = run
                if case .following = state { state = .apart(claim: run) }
            case ("eventsLost", .following):
                // Its taskFinished may be among the lost: ask again which run is under way.
                outcome.toDaemon = [probe()]
            default:
                break
            }
            return outcome
        }
        // Another run's, unless it is the run this tab's run.start is about to name.
        guard case .starting(let claim, var held) = state else { return Outcome() }
        guard Self.canHold(line, besides: held) else { return Self.overflow }
        held.append(line)
        state = .starting(claim: claim, held: held)
        return Outcome()
    }

    /// The run a held event names.
    private static func run(of line: [UInt8]) -> String? {
        guard case .object(let message)? = JSONValueParser.parse(line), case .object(let params)? = message["params"] else { return nil }
        return params["taskRunUUID"]?.stringValue
    }

    private static func canHold(_ line: [UInt8], besides held: [[UInt8]]) -> Bool {
        held.count < maximumHeld && held.reduce(line.count) { $0 + $1.count } <= maximumHeldBytes
    }

    private static let overflow = Outcome(close: "Too many events of another run came before the answer to this tab's run.start; reconnect.")

    private static func id(_ value: JSONValue?) -> JSONRPCID? {
        switch value {
        case .integer(let number)?: .number(number)
        case .string(let text)?: .string(text)
        default: nil
        }
    }

    private static func idBytes(_ id: JSONRPCID) -> [UInt8] {
        var writer = JSONTextWriter()
        switch id {
        case .number(let number): try? writer.write(.integer(number))
        case .string(let text): writer.write(text)
        }
        return writer.bytes
    }
}
