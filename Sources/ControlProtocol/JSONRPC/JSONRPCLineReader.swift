import TaskModel
import Foundation

/// Reads one line of the control socket as a JSON-RPC request, refusing everything else with the
/// error a JSON-RPC client expects (the id is kept whenever it can be read).
public enum JSONRPCLineReader {
    /// A request read from a line.
    public struct Incoming: Sendable, Hashable {
        public var request: JSONRPCRequest
        /// True when the line had no `id`: a client notification, which gets no response.
        public var isNotification: Bool
    }

    /// A line that is not a request: answer `error` with `id` (null when unknown).
    public struct Refusal: Error, Sendable, Hashable {
        public var id: JSONRPCID?
        public var error: ControlError
    }

    /// Reads `line` (without its `\n`); nil for a blank line, which is ignored.
    public static func read(_ line: some Collection<UInt8>) -> Result<Incoming, Refusal>? {
        let bytes = Array(line)
        if let offset = invalidUTF8Offset(bytes) {
            return .failure(Refusal(id: nil, error: ControlError(
                .parseError, "The line is not valid UTF-8 (bad byte at offset \(offset)); send UTF-8 JSON, one object per line.")))
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        let value: JSONValue
        do {
            // Foundation's decoder reads only what the project's parser refused, to word the refusal.
            value = try JSONValueParser.parse(bytes) ?? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            let reason = JSONSyntaxLocator.firstFault(in: bytes).map { "at column \($0.column), \($0.problem)" } ?? parseReason(error)
            return .failure(Refusal(id: nil, error: ControlError(
                .parseError, "The line is not JSON (\(reason)); send one JSON object per line.")))
        }
        return request(from: value)
    }

    /// Checks the shape of a JSON-RPC 2.0 request.
    static func request(from value: JSONValue) -> Result<Incoming, Refusal> {
        guard case .object(let members) = value else {
            if case .array = value {
                return .failure(Refusal(id: nil, error: ControlError(
                    .invalidRequest, "Batches are not accepted; send one request object per line.")))
            }
            return .failure(Refusal(id: nil, error: ControlError(
                .invalidRequest, "A request is a JSON object with jsonrpc, method, params and id.")))
        }
        var id: JSONRPCID?
        switch members["id"] {
        case nil, .null?: id = nil
        case .integer(let number)?: id = .number(number)
        case .string(let text)?: id = .string(text)
        default:
            return .failure(Refusal(id: nil, error: ControlError(
                .invalidRequest, "The id must be an integer or a string.", data: ControlErrorData(codingPath: "id"))))
        }
        guard members["jsonrpc"] == .string(JSONRPC.version) else {
            return .failure(Refusal(id: id, error: ControlError(
                .invalidRequest, "The request must say \"jsonrpc\": \"2.0\".", data: ControlErrorData(codingPath: "jsonrpc"))))
        }
        guard case .string(let method)? = members["method"] else {
            return .failure(Refusal(id: id, error: ControlError(
                .invalidRequest, "The request needs a method name (a string).", data: ControlErrorData(codingPath: "method"))))
        }
        let params = members["params"]
        switch params {
        case nil, .object?, .array?: break
        default:
            return .failure(Refusal(id: id, error: ControlError(
                .invalidRequest, "params must be an object (or absent).", data: ControlErrorData(codingPath: "params"))))
        }
        return .success(Incoming(request: JSONRPCRequest(id: id, method: method, params: params),
                                 isNotification: members["id"] == nil))
    }

    /// The offset of the first byte that is not valid UTF-8, or nil.
    static func invalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private static func parseReason(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        }
        return String(describing: error)
    }
}
