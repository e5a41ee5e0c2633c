import ControlProtocol
import Foundation
import Testing
import WebRelay

/// What a kiosk tab may send through the relay (docs/kiosk.md, "What a tab may do"): a
/// participant's methods go on as they are; everything else, a task.load that is not a task
/// of the directory by name, and what is not a request are answered in the relay.
@Suite struct KioskMethodPolicyTests {
    enum Expected: Equatable {
        case forward
        case drop
        /// An answer with this code, this codingPath, and the id echoed.
        case refuse(code: Int, codingPath: String?)
    }

    static let rows: [(line: String, expected: Expected)] = [
        (#"{"jsonrpc":"2.0","id":1,"method":"tasks.list"}"#, .forward),
        (#"{"jsonrpc":"2.0","id":1,"method":"run.forward","params":{"answers":{"q":1}}}"#, .forward),
        (#"{"jsonrpc":"2.0","id":1,"method":"task.load","params":{"path":"Walk.json"}}"#, .forward),
        (#"{"jsonrpc":"2.0","id":1,"method":"task.load","params":{"path":"folder/Walk.json"}}"#, .forward),
        (#"{"jsonrpc":"2.0","id":"a","method":"events.subscribe"}"#, .forward),
        (#"{"jsonrpc":"2.0","id":1,"method":"permission.answer","params":{"requestID":"x","granted":true}}"#, .forward),
        // Malformed params of an allowed method: the daemon words the refusal.
        (#"{"jsonrpc":"2.0","id":1,"method":"task.load","params":{}}"#, .forward),
        (#"{"jsonrpc":"2.0","id":1,"method":"runs.list"}"#, .refuse(code: -32601, codingPath: "method")),
        (#"{"jsonrpc":"2.0","id":1,"method":"run.result","params":{"taskRunUUID":"x"}}"#, .refuse(code: -32601, codingPath: "method")),
        (#"{"jsonrpc":"2.0","id":1,"method":"run.archive"}"#, .refuse(code: -32601, codingPath: "method")),
        (#"{"jsonrpc":"2.0","id":1,"method":"run.report"}"#, .refuse(code: -32601, codingPath: "method")),
        (#"{"jsonrpc":"2.0","id":1,"method":"daemon.info"}"#, .refuse(code: -32601, codingPath: "method")),
        (#"{"jsonrpc":"2.0","id":1,"method":"nothing"}"#, .refuse(code: -32601, codingPath: "method")),
        (#"{"jsonrpc":"2.0","method":"runs.list"}"#, .drop),
        (#"{"jsonrpc":"2.0","id":1,"method":"task.load","params":{"path":"/etc/passwd"}}"#, .refuse(code: -32602, codingPath: "path")),
        (#"{"jsonrpc":"2.0","id":1,"method":"task.load","params":{"path":"../x"}}"#, .refuse(code: -32602, codingPath: "path")),
        (#"{"jsonrpc":"2.0","id":1,"method":"task.load","params":{"path":"a/../../x"}}"#, .refuse(code: -32602, codingPath: "path")),
        (#"{"jsonrpc":"2.0","id":1,"method":"task.load","params":{"path":"./Walk.json"}}"#, .refuse(code: -32602, codingPath: "path")),
        (#"{"jsonrpc":"2.0","id":1,"method":"task.load","params":{"path":"a//b.json"}}"#, .refuse(code: -32602, codingPath: "path")),
        (#"{"jsonrpc":"2.0","id":1,"method":"task.load","params":{"task":{"identifier":"x","steps":[]}}}"#, .refuse(code: -32602, codingPath: "task")),
        // Duplicate members: the daemon's own reader decides which counts, so the relay judges that one.
        (#"{"jsonrpc":"2.0","id":1,"method":"tasks.list","method":"runs.list"}"#, .refuse(code: -32601, codingPath: "method")),
        (#"not json"#, .refuse(code: -32700, codingPath: nil)),
        (#"[{"jsonrpc":"2.0","id":1,"method":"runs.list"}]"#, .refuse(code: -32600, codingPath: nil)),
    ]

    @Test(arguments: rows.indices)
    func verdict(row: Int) throws {
        let (line, expected) = Self.rows[row]
        let verdict = KioskMethodPolicy.judge(Array(line.utf8))
        switch (verdict, expected) {
        case (.forward, .forward), (.drop, .drop):
            break
        case (.answer(let bytes), .refuse(let code, let codingPath)):
            #expect(bytes.last == UInt8(ascii: "\n"))
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            let error = try #require(answer["error"] as? [String: Any])
            #expect(error["code"] as? Int == code, "\(line)")
            #expect((error["data"] as? [String: Any])?["codingPath"] as? String == codingPath, "\(line)")
            #expect((error["message"] as? String)?.isEmpty == false)
            if code == -32601 {
                let method = try #require((error["data"] as? [String: Any])?["method"] as? String)
                #expect((error["message"] as? String)?.hasPrefix(method) == true, "the refusal names the method: \(error)")
            }
        default:
            Issue.record("\(line): \(verdict), expected \(expected)")
        }
    }

    /// The list holds methods the daemon declares, and none that reads another run.
    @Test func allowedMethodsAreDeclaredAndKeepOtherRunsOut() {
        let declared = Set(ControlMethods.all.map(\.name))
        let allowed = KioskMethodPolicy.allowed.map(\.name)
        #expect(Set(allowed).isSubset(of: declared))
        for method in [ControlMethods.runsList.name, ControlMethods.runResult.name, ControlMethods.runArchive.name,
                       ControlMethods.runReport.name, ControlMethods.runQuality.name, ControlMethods.runResume.name] {
            #expect(!allowed.contains(method), "\(method) reads or resumes another run")
        }
    }
}
