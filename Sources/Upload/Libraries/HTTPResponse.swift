/// An HTTP response: status, headers (names in lower case) and at most `maximumBody` bytes
/// of its body (S3's answers are small XML documents).
struct HTTPResponse: Sendable {
    static let maximumBody = 1 << 20

    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
}
