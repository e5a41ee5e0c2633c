import ControlChannel
import ControlProtocol
import Foundation
import NIOCore

/// What every frame must be answered with (docs/protocol.md, "Limits and bad input"), checked
/// with Foundation's `JSONSerialization`, a parser the product does not use to read requests.
enum ResponseCheck {
    /// The codes a response may carry when the request's id could not be read.
    static let unreadable: Set<Int> = [ControlErrorCode.parseError.rawValue, ControlErrorCode.invalidRequest.rawValue]

    static func check(_ response: JSONRPCResponse?, for frame: ControlFrame) {
        let answer = response.map(wellFormed)
        switch frame {
        case .oversized:
            precondition(answer?.id == nil && answer?.code == ControlErrorCode.invalidRequest.rawValue,
                         "An over-long line was not answered with -32600 and a null id: \(String(describing: answer)).")
        case .line(let buffer):
            let bytes = Array(buffer.readableBytesView)
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                precondition(answer == nil, "A blank line was answered.")
                return
            }
            let parsed = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
            guard let object = parsed as? [String: Any] else {
                // Not JSON, not UTF-8, a batch or not an object: one error, id null.
                precondition(answer.map { $0.id == nil && unreadable.contains($0.code ?? 0) } == true,
                             "A line that is not a request object got \(String(describing: answer)).")
                return
            }
            guard let id = object["id"] else {
                // A notification gets no response, unless it is not a valid request.
                if let answer {
                    precondition(answer.id == nil && unreadable.contains(answer.code ?? 0),
                                 "A notification was answered: \(answer).")
                }
                return
            }
            guard let answer else { preconditionFailure("A request with an id got no response.") }
            if id is NSNull {
                // JSON-RPC allows (and discourages) a null id: it is answered with a null id.
                precondition(answer.id == nil, "A request with a null id was answered with id \(String(describing: answer.id)).")
            } else if answer.id == nil {
                precondition(unreadable.contains(answer.code ?? 0), "A request with an id was answered with a null id: \(answer).")
            } else if let text = id as? String {
                precondition(answer.id == .string(text), "The response's id \(String(describing: answer.id)) is not the request's \(text).")
            }
        }
    }

    /// A response as a client reads it.
    struct Answer: CustomStringConvertible {
        var id: JSONRPCID?
        /// The error's code; nil for a result.
        var code: Int?
        var description: String
    }

    /// Checks the response's line: one JSON object ending in its only `\n`, with `jsonrpc`
    /// "2.0", an `id` member, and exactly one of `result` or an `error` with a documented code
    /// and a non-empty message.
    static func wellFormed(_ response: JSONRPCResponse) -> Answer {
        guard let line = try? JSONRPCLineWriter.line(response) else { preconditionFailure("A response cannot be encoded: \(response).") }
        precondition(line.last == UInt8(ascii: "\n") && line.firstIndex(of: UInt8(ascii: "\n")) == line.count - 1,
                     "A response is not exactly one line.")
        let text = String(decoding: line.dropLast(), as: UTF8.self)
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.dropLast()))) as? [String: Any] else {
            preconditionFailure("A response is not a JSON object: \(text)")
        }
        precondition(object["jsonrpc"] as? String == "2.0" && object.keys.contains("id"), "A response lacks jsonrpc or id: \(text)")
        precondition(Set(object.keys).isSubset(of: ["jsonrpc", "id", "result", "error"]), "A response has unknown members: \(text)")
        precondition((object["result"] == nil) != (object["error"] == nil), "A response needs exactly one of result and error: \(text)")
        var code: Int?
        if let error = object["error"] {
            guard let error = error as? [String: Any], let number = error["code"] as? Int, let message = error["message"] as? String else {
                preconditionFailure("An error lacks an integer code or a message: \(text)")
            }
            precondition(documentedCodes.contains(number), "Error code \(number) is not documented: \(text)")
            precondition(!message.isEmpty && message.last == ".", "An error message is not a sentence: \(text)")
            code = number
        }
        return Answer(id: response.id, code: code, description: text)
    }
}
