import ControlProtocol
import Foundation
import TaskModel
import Testing

/// The control socket's request parser must read every line as Foundation's `JSONDecoder` reads
/// it into a `JSONValue`, and refuse what Foundation refuses.
@Suite struct JSONValueParserTests {
    static let texts: [String] = [
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.info"}"#,
        #" { "jsonrpc" : "2.0" , "id" : "a" , "method" : "run.forward", "params": {"answers": [{"identifier": "q", "value": 3.5}]} } "#,
        "\t\r\n[1, -2, 0, -0, 1.5, -0.25, 1e2, 1E-2, 2.5e+3, 1.0, 9223372036854775807, -9223372036854775808, 9223372036854775808, 12345678901234567890123]",
        #"["\"\\\/\b\f\n\r\t", "\u00e9\u4e2d\ud83d\ude00", "é 漢 😀", ""]"#,
        #"{"a": {"b": {"c": [[], {}, null, true, false]}}, "a ": 1}"#,
        "true", "null", "3", "\"text\"", "[1,]", "{\"a\":1,}", "[1.0000000000000002, 4.5e15, -1e0, 1e19]",
        // Refused.
        "", "   ", "{", "}", "[,]", "{,}", "[1,,]", "{\"a\" 1}", "{a:1}", "[01]", "[1.]", "[.5]", "[-]", "[+1]", "[1e]",
        "[\"\\x\"]", "[\"\\u12\"]", "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"tab\there\"]", "[tru]", "[nul]", "1 2", "[1] x",
        "{\"a\":1}{\"b\":2}", "[1e400]", "NaN", "[Infinity]", "// c\n{}",
    ]

    @Test(arguments: texts.indices)
    func readsWhatFoundationReads(index: Int) {
        let bytes = Array(Self.texts[index].utf8)
        let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        let ours = JSONValueParser.parse(bytes)
        #expect(ours == foundation, "\(Self.texts[index]): ours \(String(describing: ours)), Foundation \(String(describing: foundation))")
    }

    @Test func refusesDeepNesting() {
        let deep = Array(String(repeating: "[", count: 100_000).utf8)
        #expect(JSONValueParser.parse(deep) == nil)
    }
}
