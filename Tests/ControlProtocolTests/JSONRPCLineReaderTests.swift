import ControlProtocol
import Testing

@Suite struct JSONRPCLineReaderTests {
    /// Lines that are not a request, with the code and id a JSON-RPC client expects.
    static let refusals: [(line: [UInt8], code: ControlErrorCode, id: JSONRPCID?)] = [
        (Array(#"{"jsonrpc":"2.0","id":1,"method":"#.utf8), .parseError, nil),
        (Array("not json".utf8), .parseError, nil),
        ([0x7B, 0xFF, 0x7D], .parseError, nil),
        (Array(#"{"":"","":"","":"","#.utf8) + [0xFF] + Array("       ".utf8), .parseError, nil),
        (Array(#"[{"jsonrpc":"2.0","id":1,"method":"daemon.info"}]"#.utf8), .invalidRequest, nil),
        (Array("[]".utf8), .invalidRequest, nil),
        (Array("42".utf8), .invalidRequest, nil),
        (Array(#"{"id":7,"method":"daemon.info"}"#.utf8), .invalidRequest, .number(7)),
        (Array(#"{"jsonrpc":"1.0","id":"a","method":"daemon.info"}"#.utf8), .invalidRequest, .string("a")),
        (Array(#"{"jsonrpc":"2.0","id":8}"#.utf8), .invalidRequest, .number(8)),
        (Array(#"{"jsonrpc":"2.0","id":9,"method":3}"#.utf8), .invalidRequest, .number(9)),
        (Array(#"{"jsonrpc":"2.0","id":{"x":1},"method":"daemon.info"}"#.utf8), .invalidRequest, nil),
        (Array(#"{"jsonrpc":"2.0","id":10,"method":"daemon.info","params":"x"}"#.utf8), .invalidRequest, .number(10)),
    ]

    @Test(arguments: refusals.indices)
    func refusesWhatIsNotARequest(index: Int) throws {
        let (line, code, id) = Self.refusals[index]
        let result = try #require(JSONRPCLineReader.read(line))
        guard case .failure(let refusal) = result else {
            Issue.record("Line \(index) was read as a request.")
            return
        }
        #expect(refusal.error.code == code)
        #expect(refusal.id == id)
        #expect(refusal.error.message.hasSuffix(".") || refusal.error.message.hasSuffix(")"))
    }

    @Test func reportsTheOffsetOfInvalidUTF8() throws {
        let line = Array(#"{"a":"é"#.utf8) + [0xC3, 0x28]
        guard case .failure(let refusal)? = JSONRPCLineReader.read(line) else {
            Issue.record("Invalid UTF-8 was accepted.")
            return
        }
        #expect(refusal.error.message.contains("offset 8"))
    }

    @Test func readsRequestsAndNotifications() throws {
        guard case .success(let request)? = JSONRPCLineReader.read(Array(#"{"jsonrpc":"2.0","id":"x","method":"run.cancel","params":{"save":true}}"#.utf8)) else {
            Issue.record("A request was refused.")
            return
        }
        #expect(request.request.id == .string("x"))
        #expect(request.request.params == ["save": true])
        #expect(!request.isNotification)

        guard case .success(let notification)? = JSONRPCLineReader.read(Array(#"{"jsonrpc":"2.0","method":"run.status"}"#.utf8)) else {
            Issue.record("A notification was refused.")
            return
        }
        #expect(notification.isNotification)
    }

    @Test func ignoresBlankLines() {
        #expect(JSONRPCLineReader.read(Array("".utf8)) == nil)
        #expect(JSONRPCLineReader.read(Array("  \r".utf8)) == nil)
    }
}

extension JSONRPCLineReaderTests {
    @Test func malformedJSONNamesTheColumn() {
        guard case .failure(let refusal)? = JSONRPCLineReader.read(Array(#"{"jsonrpc": "2.0", "id": 1, "method": }"#.utf8)) else {
            Issue.record("Malformed JSON was accepted.")
            return
        }
        #expect(refusal.error.code == .parseError)
        #expect(refusal.error.message.contains("column 39"), "\(refusal.error.message)")
    }
}
