import TaskModel
import ControlProtocol
import Testing

@Suite struct ControlCommandTests {
    /// Wrong params, with the coding path the error must name.
    static let wrongParams: [(method: ControlMethod, params: JSONValue?, codingPath: String)] = [
        (.runCancel, nil, ""),
        (.runCancel, [:], "save"),
        (.runCancel, ["save": "yes"], "save"),
        (.runResume, ["taskRunUUID": 5], "taskRunUUID"),
        (.runForward, ["answers": [["identifier": "q1"]]], "answers[0].value"),
        (.runForward, ["answers": [["value": 3]]], "answers[0].identifier"),
        (.runForward, ["skipToIdentifier": ["x"]], "skipToIdentifier"),
        (.permissionAnswer, ["requestID": 1], "granted"),
        (.permissionAnswer, ["requestID": "one", "granted": true], "requestID"),
        (.taskLoad, [:], "path"),
        (.taskLoad, ["path": "a.json", "task": ["identifier": "x"]], "task"),
        (.taskLoad, ["path": 3], "path"),
        (.daemonInfo, ["verbose": true], ""),
        (.runStart, .array([1]), ""),
    ]

    @Test(arguments: wrongParams.indices)
    func wrongParamsNameTheirCodingPath(index: Int) {
        let (method, params, codingPath) = Self.wrongParams[index]
        do {
            _ = try ControlCommand(method: method, params: params)
            Issue.record("\(method.rawValue) accepted \(String(describing: params)).")
        } catch {
            #expect(error.code == .invalidParams)
            #expect(error.data?.codingPath == codingPath)
            #expect(error.message.contains(method.rawValue))
        }
    }

    @Test func decodesEveryCommandAndEncodesItsParamsBack() throws {
        let commands: [ControlCommand] = [
            .daemonInfo, .devicesList, .taskLoad(TaskLoadParams(path: "/tasks/walk.json")),
            .taskLoad(TaskLoadParams(task: ["identifier": "t", "steps": []], resources: ["walk": ["x": 1]])),
            .runStart, .runForward(ForwardParams(answers: [StepAnswer(identifier: "q", value: 3, answerType: ["type": "integer"])],
                                                 skipToIdentifier: "end")),
            .runForward(ForwardParams()), .runBack, .runSkip, .runAbandon, .timerStart, .timerPause, .timerResume,
            .permissionAnswer(PermissionAnswerParams(requestID: 4, granted: false)), .runCancel(CancelParams(save: true)),
            .runResume(RunReference(taskRunUUID: "u")), .runStatus, .runsList, .runResult(RunReference(taskRunUUID: "u")),
            .runArchive(RunReference(taskRunUUID: "u")),
        ]
        for command in commands {
            #expect(try ControlCommand(method: command.method, params: command.params) == command)
        }
    }

    @Test func everyHandlerMethodHasACommand() throws {
        for method in ControlMethod.allCases where !method.isAnsweredByServer {
            let params: JSONValue? = switch method.paramsType {
            case nil: nil
            case is RunReference.Type: ["taskRunUUID": "u"]
            case is CancelParams.Type: ["save": false]
            case is PermissionAnswerParams.Type: ["requestID": 1, "granted": true]
            case is TaskLoadParams.Type: ["path": "x"]
            default: [:]
            }
            #expect(try ControlCommand(method: method, params: params).method == method)
        }
    }

    @Test func repliesAnswerOnlyTheirMethods() {
        let status = ControlReply.status(SessionStatus(state: .idle))
        #expect(status.answers(.runForward))
        #expect(status.answers(.timerPause))
        #expect(!status.answers(.runsList))
        #expect(ControlReply.runs(RunList(runs: [])).answers(.runsList))
        #expect(!ControlReply.archive(ArchiveLocation(taskRunUUID: "u", archive: "a")).answers(.runResult))
    }
}
