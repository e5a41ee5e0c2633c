import Foundation
import Glibc
import Testing
import TestSupport

/// SageResearch's SimpleSurvey.json through the real daemon (docs/protocol.md, "A survey run"):
/// on each question every kind of bad answer first (refused with -32602 naming the answer, the
/// step stays shown), then a good one; the step path, the answer results and answers.json.
@Suite(
    "activetaskd: SimpleSurvey.json answered over the socket",
    .enabled(if: Fixtures.available, "The SageResearch corpus (../shared/fixtures/sage) is absent: the survey run is skipped."))
struct SimpleSurveyTests {
    /// (step, bad answers with the coding path each must be refused at, the good answer, the
    /// value stored, the answer type stored)
    static var questions: [(String, [([[String: Any]], String)], [[String: Any]], Any, [String: Any])] { [
        ("selectOne",
         [([], "answers"), ([["identifier": "selectOne", "value": "Zulu"]], "answers[0].value"),
          ([["identifier": "selectOne", "value": 3]], "answers[0].value"), ([["identifier": "pickOne", "value": "Alfa"]], "answers[0].identifier")],
         [["identifier": "selectOne", "value": "Charlie"]], "Charlie", ["type": "string"]),
        ("selectMultiple",
         [([["identifier": "selectMultiple", "value": 1]], "answers[0].value"), ([["identifier": "selectMultiple", "value": [1, 5]]], "answers[0].value[1]"),
          ([["identifier": "selectMultiple", "value": [1, 0]]], "answers[0].value"), ([["identifier": "selectMultiple", "value": ["1"]]], "answers[0].value[0]")],
         [["identifier": "selectMultiple", "value": [3, 1]]], [3, 1], ["type": "array", "baseType": "integer"]),
        ("pickANumber",
         [([["identifier": "pickANumber", "value": 4]], "answers[0].value"), ([["identifier": "pickANumber", "value": -3]], "answers[0].value"),
          ([["identifier": "pickANumber", "value": 1.5]], "answers[0].value"), ([["identifier": "pickANumber", "value": "2"]], "answers[0].value"),
          ([["identifier": "pickANumber", "value": NSNull()]], "answers")],
         [["identifier": "pickANumber", "value": -2]], -2, ["type": "integer"]),
        ("year",
         [([["identifier": "year", "value": 3000]], "answers[0].value"), ([["identifier": "year", "value": "1999"]], "answers[0].value")],
         [["identifier": "year", "value": 1999]], 1999, ["type": "integer"]),
        ("heightAndWeight",
         [([["identifier": "heightAdult", "value": "tall"]], "answers[0].value"), ([["identifier": "shoeSize", "value": 42]], "answers[0].identifier"),
          ([["identifier": "weightInfant", "value": -1]], "answers[0].value"), ([], "answers")],
         [["identifier": "heightAdult", "value": 180.5], ["identifier": "weightInfant", "value": 4]],
         ["heightAdult": 180.5, "weightInfant": 4], ["type": "object"]),
    ] }

    /// JSON text with sorted keys, to compare decoded JSON.
    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("Every bad answer is refused with its coding path and loses nothing; the good answers are stored as SageResearch answer results")
    func survey() async throws {
        let fixture = try await DaemonFixture("survey")
        let daemon = try await fixture.start()
        let socket = fixture.socket
        let file = Fixtures.path(Fixtures.catalog + "SimpleSurvey.json")
        let directory = try await offThread { () throws -> String in
            let client = try LineClient(path: socket, timeout: 20)
            _ = try client.result("events.subscribe", ["kinds": ["taskFinished"]])
            _ = try client.result("task.load", ["path": file])
            var status = try client.result("run.start")
            for (step, bad, good, _, _) in Self.questions {
                let path = "list/\(step)"
                for (answers, codingPath) in bad {
                    let response = try client.call("run.forward", ["stepPath": path, "answers": answers])
                    let error = response["error"] as? [String: Any] ?? [:]
                    let data = error["data"] as? [String: Any] ?? [:]
                    guard error["code"] as? Int == -32602, data["codingPath"] as? String == codingPath,
                          (error["message"] as? String ?? "").hasSuffix(".") || (error["message"] as? String ?? "").hasSuffix(")") else {
                        throw DaemonTestFailure("\(step) \(answers): expected -32602 at \(codingPath), got \(response)")
                    }
                    let shown = (try client.result("run.status")["step"] as? [String: Any])?["stepPath"] as? String
                    guard shown == path else { throw DaemonTestFailure("after a refused answer on \(step) the daemon shows \(shown ?? "nothing")") }
                }
                status = try client.result("run.forward", ["stepPath": path, "answers": good])
            }
            let finished = try client.waitForEvent("taskFinished", within: 15)
            guard finished["reason"] as? String == "completed" else { throw DaemonTestFailure("the survey ended \(finished) (\(status))") }
            return try #require(finished["runDirectory"] as? String)
        }
        let result = try RunFiles.object(URL(fileURLWithPath: directory).appendingPathComponent("taskResult.json"))
        let history = result["stepHistory"] as? [[String: Any]] ?? []
        #expect(history.compactMap { $0["identifier"] as? String } == Self.questions.map(\.0))
        for (step, _, _, value, answerType) in Self.questions {
            let entry = try #require(history.first { $0["identifier"] as? String == step })
            #expect(entry["type"] as? String == "answer", "\(step): \(entry)")
            #expect(try Self.canonical(entry["answerType"] ?? NSNull()) == Self.canonical(answerType), "\(step): \(entry)")
            #expect(try Self.canonical(entry["value"] ?? NSNull()) == Self.canonical(value), "\(step): \(entry)")
            #expect(entry["questionText"] is String, "\(step): \(entry)")
        }
        let answers = try RunFiles.object(URL(fileURLWithPath: directory).appendingPathComponent("answers.json"))
        #expect(try Self.canonical(answers) == Self.canonical(Dictionary(uniqueKeysWithValues: Self.questions.map { ($0.0, $0.3) })), "\(answers)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output)")
    }
}
