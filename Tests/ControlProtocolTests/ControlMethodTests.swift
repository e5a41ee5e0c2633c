import TaskModel
import ControlProtocol
import Testing

/// The method declarations (`ControlMethods`): how each decodes and encodes its params, and the
/// result type each documents.
@Suite struct ControlMethodTests {
    /// Wrong params, with the coding path the error must name.
    static let wrongParams: [(method: any ControlMethodDescribing, params: JSONValue?, codingPath: String)] = [
        (ControlMethods.runCancel, nil, ""),
        (ControlMethods.runCancel, [:], "save"),
        (ControlMethods.runCancel, ["save": "yes"], "save"),
        (ControlMethods.runResume, ["taskRunUUID": 5], "taskRunUUID"),
        (ControlMethods.runForward, ["answers": [["identifier": "q1"]]], "answers[0].value"),
        (ControlMethods.runForward, ["answers": [["value": 3]]], "answers[0].identifier"),
        (ControlMethods.runForward, ["skipToIdentifier": ["x"]], "skipToIdentifier"),
        (ControlMethods.permissionAnswer, ["requestID": 1], "granted"),
        (ControlMethods.permissionAnswer, ["requestID": "one", "granted": true], "requestID"),
        (ControlMethods.taskLoad, [:], "path"),
        (ControlMethods.taskLoad, ["path": "a.json", "task": ["identifier": "x"]], "task"),
        (ControlMethods.taskLoad, ["path": 3], "path"),
        (ControlMethods.daemonInfo, ["verbose": true], ""),
        (ControlMethods.runStart, .array([1]), ""),
        (ControlMethods.runStart, ["cohorts": "a"], "cohorts"),
        (ControlMethods.runStart, ["cohorts": ["a", ""]], "cohorts[1]"),
        (ControlMethods.runStart, ["fullInstructions": "no"], "fullInstructions"),
        (ControlMethods.tasksImage, ["task": "Walk.json"], "name"),
        (ControlMethods.tasksImage, ["task": 1, "name": "walk"], "task"),
        (ControlMethods.tasksList, ["all": true], ""),
        (ControlMethods.tasksResource, ["task": "Walk.json"], "name"),
        (ControlMethods.tasksResource, ["task": "Walk.json", "name": "about", "offset": "0"], "offset"),
        (ControlMethods.tasksResource, ["task": "Walk.json", "name": "about", "offset": -1], "offset"),
        (ControlMethods.tasksResource, ["task": "Walk.json", "name": "about", "length": -1], "length"),
    ]

    @Test(arguments: wrongParams.indices)
    func wrongParamsNameTheirCodingPath(index: Int) {
        let (method, params, codingPath) = Self.wrongParams[index]
        do {
            _ = try method.paramsType.decode(params, for: method.name)
            Issue.record("\(method.name) accepted \(String(describing: params)).")
        } catch {
            #expect(error.code == .invalidParams)
            #expect(error.data?.codingPath == codingPath)
            #expect(error.message.contains(method.name))
        }
    }

    /// Encodes `params` as a client's request carries them and decodes them as the server does.
    private func roundTrip<Params: ControlParams & Equatable, Result>(_ method: ControlMethod<Params, Result>, _ params: Params) throws {
        #expect(try method.decodeParams(method.requestParams(params)) == params, "\(method.name)")
    }

    @Test func decodesEveryMethodsParamsAndEncodesThemBack() throws {
        try roundTrip(ControlMethods.daemonInfo, NoParams())
        try roundTrip(ControlMethods.devicesList, NoParams())
        try roundTrip(ControlMethods.taskLoad, TaskLoadParams(path: "/tasks/walk.json"))
        try roundTrip(ControlMethods.taskLoad, TaskLoadParams(task: ["identifier": "t", "steps": []], resources: ["walk": ["x": 1]]))
        try roundTrip(ControlMethods.runStart, RunStartParams())
        try roundTrip(ControlMethods.runStart, RunStartParams(cohorts: ["a", "b"], fullInstructions: false))
        try roundTrip(ControlMethods.runForward, ForwardParams(
            answers: [StepAnswer(identifier: "q", value: 3, answerType: ["type": "integer"])], skipToIdentifier: "end"))
        try roundTrip(ControlMethods.runForward, ForwardParams())
        try roundTrip(ControlMethods.runForward, ForwardParams(stepPath: "Walk/walking", taskRunUUID: "r"))
        for method in [ControlMethods.runBack, ControlMethods.runSkip, ControlMethods.runAbandon, ControlMethods.timerStart,
                       ControlMethods.timerPause, ControlMethods.timerResume] {
            try roundTrip(method, RunCommandParams())
            try roundTrip(method, RunCommandParams(taskRunUUID: "r"))
        }
        try roundTrip(ControlMethods.runStatus, NoParams())
        try roundTrip(ControlMethods.permissionAnswer, PermissionAnswerParams(requestID: 4, granted: false))
        try roundTrip(ControlMethods.permissionAnswer, PermissionAnswerParams(requestID: 4, granted: false, taskRunUUID: "r"))
        try roundTrip(ControlMethods.runCancel, CancelParams(save: true))
        try roundTrip(ControlMethods.runCancel, CancelParams(save: true, taskRunUUID: "r"))
        try roundTrip(ControlMethods.runResume, RunReference(taskRunUUID: "u"))
        try roundTrip(ControlMethods.runsList, NoParams())
        try roundTrip(ControlMethods.runResult, RunReference(taskRunUUID: "u"))
        try roundTrip(ControlMethods.runArchive, RunReference(taskRunUUID: "u"))
        try roundTrip(ControlMethods.tasksResource, TaskResourceParams(task: "Walk.json", name: "about.mov", offset: 393216))
        try roundTrip(ControlMethods.tasksResource, TaskResourceParams(task: "Walk.json", name: "About"))
        try roundTrip(ControlMethods.tasksResource, TaskResourceParams(task: "Walk.json", name: "About", length: 0))
        // A method without params sends none, and a run command that names no run none either.
        #expect(try ControlMethods.runStatus.requestParams(NoParams()) == nil)
        #expect(try ControlMethods.runBack.requestParams(RunCommandParams()) == nil)
        #expect(try ControlMethods.runBack.requestParams(RunCommandParams(taskRunUUID: "r")) == ["taskRunUUID": "r"])
    }

    @Test func everyMethodDecodesParamsOfItsType() throws {
        for method in ControlMethods.all {
            let params: JSONValue? = switch method.paramsType {
            case is NoParams.Type, is IgnoredParams.Type, is RunCommandParams.Type: nil
            case is RunReference.Type: ["taskRunUUID": "u"]
            case is CancelParams.Type: ["save": false]
            case is PermissionAnswerParams.Type: ["requestID": 1, "granted": true]
            case is TaskLoadParams.Type: ["path": "x"]
            case is TaskImageParams.Type: ["task": "Walk.json", "name": "walk"]
            case is TaskResourceParams.Type: ["task": "Walk.json", "name": "about", "offset": 393216]
            default: [:]
            }
            #expect(type(of: try method.paramsType.decode(params, for: method.name)) == method.paramsType, "\(method.name)")
        }
    }

    @Test func methodsAnswerWithTheirDocumentedResultType() {
        func returns(_ method: any ControlMethodDescribing, _ type: any ControlResult.Type) -> Bool {
            ObjectIdentifier(method.resultType) == ObjectIdentifier(type)
        }
        #expect(returns(ControlMethods.runForward, SessionStatus.self))
        #expect(returns(ControlMethods.timerPause, SessionStatus.self))
        #expect(!returns(ControlMethods.runsList, SessionStatus.self))
        #expect(returns(ControlMethods.runsList, RunList.self))
        #expect(!returns(ControlMethods.runResult, ArchiveLocation.self))
    }

    @Test func methodNamesAreUniqueAndFoundByName() {
        let names = ControlMethods.all.map(\.name)
        #expect(Set(names).count == names.count)
        for method in ControlMethods.all {
            #expect(ControlMethods.named(method.name)?.name == method.name)
        }
        #expect(ControlMethods.named("run.fly") == nil)
    }

    /// Params a method ignores (`rpc.discover`, `events.unsubscribe` never read theirs) are
    /// accepted whatever they are, as before the declarations.
    @Test func ignoredParamsAcceptAnything() throws {
        for params: JSONValue? in [nil, [:], ["x": 1], .array([1]), "text"] {
            _ = try ControlMethods.rpcDiscover.decodeParams(params)
            _ = try ControlMethods.eventsUnsubscribe.decodeParams(params)
        }
    }
}
