import ControlProtocol
import Foundation
import TaskModel
import Testing
import WebRelay

/// Which run a tab may see and drive (docs/kiosk.md, "A tab's own run"): each row is a tab's
/// life as the relay sees it, its requests and the daemon's lines in order, with what must come
/// of each.
@Suite struct TabRunScopeTests {
    enum Step {
        /// A request from the tab, and whether it goes on (nil; a run command with the tab's run
        /// named in its params) or is answered with this code.
        case request(String, refused: Int?)
        /// A notification the tab may not send: no answer either way.
        case droppedNotification(String)
        /// A line from the daemon, and what the tab gets of it.
        case daemon(String, Expect)
    }

    enum Expect: Equatable {
        /// The line as it came.
        case passed
        /// Nothing.
        case nothing
        /// An answer with no other run in it: no UUID of it, nothing but the state and `foreignRun`.
        case redacted
        /// The answer, then this many events held until it came.
        case released(Int)
        /// The relay's own run.status answered: the tab follows its run, and gets nothing of it.
        case follows
        /// The line passes and the relay asks again which run is under way.
        case passedAndProbed
        /// The tab is closed.
        case closed
    }

    static let own = "AAAAAAAA-0000-4000-8000-000000000001"
    static let other = "BBBBBBBB-0000-4000-8000-000000000002"

    static func request(_ id: Int?, _ method: String, _ params: String? = nil) -> String {
        let id = id.map { #""id":\#($0),"# } ?? ""
        let params = params.map { #","params":\#($0)"# } ?? ""
        return #"{"jsonrpc":"2.0",\#(id)"method":"\#(method)"\#(params)}"#
    }

    static func status(_ id: String, _ state: String, run: String?) -> String {
        let run = run.map { #","step":{"stepPath":"Walk/walking","step":{"identifier":"walking"}},"taskRunUUID":"\#($0)""# } ?? ""
        return #"{"id":\#(id),"jsonrpc":"2.0","result":{"state":"\#(state)"\#(run)}}"#
    }

    static let probeAnswerIdle = status(#""activetask-web.probe""#, "idle", run: nil)
    static func probeAnswer(_ state: String, run: String) -> String { status(#""activetask-web.probe""#, state, run: run) }
    static func stepShown(_ run: String) -> String {
        #"{"jsonrpc":"2.0","method":"event","params":{"kind":"stepShown","sequence":7,"stepPath":"Walk/walking","taskRunUUID":"\#(run)","uptime":1.5}}"#
    }
    static func eventsLost(_ run: String) -> String {
        #"{"jsonrpc":"2.0","method":"event","params":{"count":3,"kind":"eventsLost","sequence":9,"taskRunUUID":"\#(run)","uptime":2}}"#
    }
    /// An event of no run (none is sent today; the protocol allows it).
    static let ofNoRun = #"{"jsonrpc":"2.0","method":"event","params":{"kind":"warning","message":"Disk nearly full.","sequence":3,"uptime":1}}"#
    static func notCurrent(_ id: Int, _ method: String, current: String) -> String {
        #"{"error":{"code":-32001,"data":{"method":"\#(method)","taskRunUUID":"\#(current)"},"message":"\#(method) is meant for the run \#(own), but the current run is \#(current); it was not carried out."},"id":\#(id),"jsonrpc":"2.0"}"#
    }
    static func finished(_ run: String) -> String {
        #"{"jsonrpc":"2.0","method":"event","params":{"kind":"taskFinished","reason":"completed","runDirectory":"/d/\#(run)","sequence":8,"taskRunUUID":"\#(run)","uptime":2}}"#
    }
    static func alreadyRunning(_ id: Int, _ run: String) -> String {
        #"{"error":{"code":-32002,"data":{"taskRunUUID":"\#(run)"},"message":"Run \#(run) of task Walk is already running; finish it or call run.cancel before starting another."},"id":\#(id),"jsonrpc":"2.0"}"#
    }

    static let rows: [(name: String, claim: String?, steps: [Step])] = [
        ("a tab starts its run, follows it to its end and no further", nil, [
            .daemon(probeAnswerIdle, .nothing),
            .request(request(1, "events.subscribe"), refused: nil),
            .daemon(#"{"id":1,"jsonrpc":"2.0","result":{"subscribed":true}}"#, .passed),
            .request(request(2, "task.load", #"{"path":"Walk.json"}"#), refused: nil),
            .daemon(#"{"id":2,"jsonrpc":"2.0","result":{"stepCount":3,"taskIdentifier":"Walk"}}"#, .passed),
            .request(request(3, "run.start"), refused: nil),
            .request(request(4, "run.start"), refused: -32000),
            .daemon(stepShown(own), .nothing),
            .daemon(stepShown(other), .nothing),
            .daemon(status("3", "running", run: own), .released(1)),
            .daemon(stepShown(own), .passed),
            .daemon(ofNoRun, .passed),
            .request(request(5, "run.forward", #"{"stepPath":"Walk/walking"}"#), refused: nil),
            .daemon(status("5", "running", run: own), .passed),
            .request(request(6, "timer.pause"), refused: nil),
            .daemon(status("6", "paused", run: own), .passed),
            .daemon(finished(own), .passed),
            // The next run is someone else's.
            .daemon(stepShown(other), .nothing),
            .request(request(7, "run.cancel", #"{"save":true}"#), refused: -32001),
            .request(request(8, "run.status"), refused: nil),
            .daemon(status("8", "running", run: other), .redacted),
        ]),
        ("another tab sees and drives nothing of a run it did not start", nil, [
            .daemon(probeAnswer("running", run: other), .nothing),
            .request(request(1, "run.status"), refused: nil),
            .daemon(status("1", "running", run: other), .redacted),
            .daemon(stepShown(other), .nothing),
            .request(request(2, "run.cancel", #"{"save":false}"#), refused: -32001),
            .request(request(3, "timer.pause"), refused: -32001),
            .request(request(4, "run.forward", #"{"stepPath":"Walk/walking"}"#), refused: -32001),
            .request(request(5, "permission.answer", #"{"requestID":1,"granted":true}"#), refused: -32001),
            .droppedNotification(request(nil, "run.skip")),
            .droppedNotification(request(nil, "run.start")),
            .request(request(6, "task.load", #"{"path":"Walk.json"}"#), refused: nil),
            .daemon(alreadyRunning(6, other), .redacted),
            .request(request(7, "run.start"), refused: nil),
            .daemon(stepShown(other), .nothing),
            .daemon(alreadyRunning(7, other), .redacted),
            .daemon(stepShown(other), .nothing),
            .daemon(finished(other), .nothing),
            .request(request(8, "run.status"), refused: nil),
            .daemon(status("8", "finished", run: other), .redacted),
            // Its own run, once the device is free.
            .request(request(9, "run.start"), refused: nil),
            .daemon(status("9", "running", run: own), .released(0)),
            .daemon(stepShown(own), .passed),
            .request(request(10, "run.skip"), refused: nil),
            .request(request(11, "run.forward", #"{"stepPath":"Walk/walking","taskRunUUID":"\#(other)"}"#), refused: nil),
        ]),
        ("a tab that reconnects with its key goes on with its run", own, [
            .daemon(probeAnswer("waitingForPermission", run: own), .nothing),
            .request(request(1, "events.subscribe"), refused: nil),
            .daemon(#"{"id":1,"jsonrpc":"2.0","result":{"subscribed":true}}"#, .passed),
            .request(request(2, "run.status"), refused: nil),
            .daemon(status("2", "waitingForPermission", run: own), .passed),
            .daemon(stepShown(own), .passed),
            .request(request(3, "permission.answer", #"{"requestID":1,"granted":true}"#), refused: nil),
            .daemon(status("3", "running", run: own), .passed),
            // The run ended meanwhile and another began: the command's answer says so.
            .request(request(4, "run.back"), refused: nil),
            .daemon(status("4", "running", run: other), .redacted),
            .daemon(stepShown(other), .nothing),
            .request(request(5, "run.back"), refused: -32001),
        ]),
        ("a run ended by another client and replaced at once: nothing of the new run, and the daemon refuses", own, [
            .daemon(probeAnswer("running", run: own), .nothing),
            .daemon(stepShown(own), .passed),
            // Another client cancelled it and started its own before its taskFinished came.
            .daemon(stepShown(other), .nothing),
            .daemon(eventsLost(other), .nothing),
            .request(request(1, "run.skip"), refused: nil),
            .daemon(notCurrent(1, "run.skip", current: other), .redacted),
            .request(request(2, "timer.pause", "{}"), refused: -32001),
            .daemon(finished(own), .passed),
            .daemon(stepShown(other), .nothing),
            .daemon(finished(other), .nothing),
        ]),
        ("a claimed run that has ended is not followed, but its status is the tab's", own, [
            .daemon(probeAnswer("finished", run: own), .nothing),
            .daemon(stepShown(other), .nothing),
            .request(request(1, "run.skip"), refused: -32001),
            .request(request(2, "run.status"), refused: nil),
            .daemon(status("2", "finished", run: own), .passed),
        ]),
        ("eventsLost: the relay asks again which run is under way", own, [
            .daemon(probeAnswer("running", run: own), .nothing),
            .daemon(eventsLost(own), .passedAndProbed),
            .daemon(stepShown(own), .passed),
            .daemon(probeAnswer("running", run: own), .follows),
            .daemon(stepShown(own), .passed),
            .daemon(eventsLost(own), .passedAndProbed),
            .daemon(stepShown(other), .nothing),
            .daemon(probeAnswer("running", run: other), .nothing),
            .daemon(stepShown(other), .nothing),
            .request(request(1, "run.forward"), refused: -32001),
        ]),
        ("a resource piece passes by its id alone; an answer out of step closes the tab", nil, [
            .daemon(probeAnswerIdle, .nothing),
            .request(request(7, "tasks.resource", #"{"task":"Walk.json","name":"page"}"#), refused: nil),
            .daemon(#"{"id":7,"jsonrpc":"2.0","result":{"base64":"PGh0bWw+","contentType":"text/html","file":"page.html","offset":0,"size":6}}"#, .passed),
            .request(request(8, "tasks.list"), refused: nil),
            .daemon(#"{"id":9,"jsonrpc":"2.0","result":{"tasks":[]}}"#, .closed),
        ]),
        ("an answer nobody asked for closes the tab", nil, [
            .daemon(probeAnswerIdle, .nothing),
            .daemon(status("1", "running", run: other), .closed),
        ]),
        ("a judged answer with another id closes the tab", nil, [
            .daemon(probeAnswerIdle, .nothing),
            .request(request(1, "run.status"), refused: nil),
            .daemon(status("2", "running", run: other), .closed),
        ]),
    ]

    @Test(arguments: rows.indices)
    func scope(row: Int) throws {
        let (name, claim, steps) = Self.rows[row]
        var scope = TabRunScope(claim: claim)
        let probe = try #require(JSONSerialization.jsonObject(with: Data(scope.probe())) as? [String: Any])
        #expect(probe["method"] as? String == "run.status" && probe["id"] as? String == "activetask-web.probe", "\(name)")
        #expect(!scope.readsBrowser, "\(name): the browser is read only once the probe is answered")
        for (index, step) in steps.enumerated() {
            let place = "\(name), step \(index + 1)"
            switch step {
            case .request(let line, let refused):
                let incoming = try Self.incoming(line)
                let admission = scope.admit(incoming)
                if let refused {
                    guard case .refuse(let error?) = admission else { Issue.record("\(place): \(admission) instead of \(refused)"); continue }
                    #expect(error.code.rawValue == refused, "\(place)")
                    #expect(error.data?.method == incoming.request.method, "\(place)")
                } else if TabRunScope.runCommands.contains(incoming.request.method) {
                    guard case .forwardNaming(let line) = admission else { Issue.record("\(place): \(admission) names no run"); continue }
                    try Self.checkNamed(line, from: incoming, run: scope.claim, place: place)
                } else {
                    #expect(admission == .forward, "\(place)")
                }
            case .droppedNotification(let line):
                #expect(scope.admit(try Self.incoming(line)) == .refuse(nil), "\(place)")
            case .daemon(let line, let expected):
                let outcome = scope.daemonLine(Array(line.utf8))
                try Self.check(outcome, of: line, against: expected, scope: scope, place: place)
            }
        }
    }

    static func incoming(_ line: String) throws -> JSONRPCLineReader.Incoming {
        guard case .success(let incoming)? = JSONRPCLineReader.read(Array(line.utf8)) else {
            throw CocoaError(.coderReadCorrupt)
        }
        return incoming
    }

    /// The request as it came, but for its `params.taskRunUUID`, which is `run`.
    static func checkNamed(_ line: [UInt8], from incoming: JSONRPCLineReader.Incoming, run: String?, place: String) throws {
        let named = try Self.incoming(String(decoding: line, as: UTF8.self))
        guard case .object(var params)? = named.request.params, let run else { Issue.record("\(place): no params"); return }
        #expect(params.removeValue(forKey: "taskRunUUID") == .string(run), "\(place)")
        var original: [String: JSONValue] = if case .object(let members)? = incoming.request.params { members } else { [:] }
        original["taskRunUUID"] = nil
        #expect(params == original && named.request.id == incoming.request.id && named.request.method == incoming.request.method, "\(place)")
    }

    static func check(_ outcome: TabRunScope.Outcome, of line: String, against expected: Expect, scope: TabRunScope, place: String) throws {
        switch expected {
        case .passed:
            #expect(outcome.toBrowser.count == 1 && outcome.close == nil && outcome.toDaemon.isEmpty, "\(place)")
            if case .line(let bytes)? = outcome.toBrowser.first { #expect(bytes == Array(line.utf8), "\(place)") }
        case .nothing:
            #expect(outcome == TabRunScope.Outcome(), "\(place)")
        case .redacted:
            guard outcome.toBrowser.count == 1, case .line(let bytes) = outcome.toBrowser[0] else {
                Issue.record("\(place): \(outcome) is not one rewritten line")
                return
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains(other) && !text.contains("stepPath") && !text.contains("runDirectory"), "\(place): \(text)")
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            if let result = answer["result"] as? [String: Any] {
                #expect(Set(result.keys) == ["state", "foreignRun"] && result["foreignRun"] as? Bool == true, "\(place): \(text)")
            } else {
                let error = try #require(answer["error"] as? [String: Any])
                #expect([-32001, -32002].contains(error["code"] as? Int) && (error["data"] as? [String: Any])?["method"] != nil, "\(place): \(text)")
            }
        case .released(let held):
            #expect(outcome.toBrowser.count == held + 1 && outcome.toBrowser.first == .original, "\(place)")
            #expect(outcome.claimed == own, "\(place)")
            #expect(scope.state == .following(run: own), "\(place)")
            return
        case .follows:
            #expect(outcome == TabRunScope.Outcome(), "\(place)")
            #expect(scope.state == .following(run: own) && scope.readsBrowser, "\(place)")
        case .passedAndProbed:
            #expect(outcome.toBrowser == [.original] && outcome.toDaemon.count == 1, "\(place)")
            #expect(!scope.readsBrowser, "\(place)")
        case .closed:
            #expect(outcome.close != nil, "\(place)")
        }
        if line.contains(#""activetask-web.probe""#), case .following = scope.state {
            #expect(scope.readsBrowser, "\(place)")
        }
        if line.contains("taskFinished"), line.contains(own) { #expect(outcome.ended == own, "\(place)") }
    }

    @Test func eventsHeldAreBounded() throws {
        var scope = TabRunScope(claim: nil)
        _ = scope.probe()
        _ = scope.daemonLine(Array(Self.probeAnswerIdle.utf8))
        #expect(scope.admit(try Self.incoming(Self.request(1, "run.start"))) == .forward)
        for _ in 0..<TabRunScope.maximumHeld {
            #expect(scope.daemonLine(Array(Self.stepShown(Self.own).utf8)) == TabRunScope.Outcome())
        }
        #expect(scope.daemonLine(Array(Self.stepShown(Self.own).utf8)).close != nil)
        // And by their bytes: a 3 MiB step and a second one.
        var large = TabRunScope(claim: nil)
        _ = large.probe()
        _ = large.daemonLine(Array(Self.probeAnswerIdle.utf8))
        _ = large.admit(try Self.incoming(Self.request(1, "run.start")))
        let step = Array(#"{"jsonrpc":"2.0","method":"event","params":{"kind":"stepShown","step":{"text":""#.utf8)
            + [UInt8](repeating: UInt8(ascii: "a"), count: 3 << 20) + Array(#""},"stepPath":"Walk/walking","taskRunUUID":"\#(Self.own)"}}"#.utf8)
        #expect(large.daemonLine(step) == TabRunScope.Outcome())
        #expect(large.daemonLine(step).close != nil)
    }

    @Test func requestsInFlightAreBounded() throws {
        var scope = TabRunScope(claim: nil)
        _ = scope.probe()
        _ = scope.daemonLine(Array(Self.probeAnswerIdle.utf8))
        for id in 0..<TabRunScope.maximumInFlight {
            #expect(scope.readsBrowser)
            _ = scope.admit(try Self.incoming(Self.request(id, "tasks.list")))
        }
        #expect(!scope.readsBrowser)
        #expect(scope.daemonLine(Array(#"{"id":0,"jsonrpc":"2.0","result":{"tasks":[]}}"#.utf8)).toBrowser == [.original])
        #expect(scope.readsBrowser)
    }
}
