/// One HTTP request as libcurl sends it: the body comes from memory or streams from a file.
struct HTTPRequest: Sendable {
    enum Body: Sendable {
        case none
        case bytes([UInt8])
        /// `length` bytes of the file at `path` from `offset`, read as they are sent.
        case file(path: String, offset: Int64, length: Int64)

        var length: Int64 {
            switch self {
            case .none: 0
            case .bytes(let bytes): Int64(bytes.count)
            case .file(_, _, let length): length
            }
        }
    }

    var method: String
    var url: String
    /// Sent as given, in order (the signer's headers; `Host` included).
    var headers: [(name: String, value: String)]
    var body: Body = .none
}

/// An HTTP response: status, headers (names in lower case) and at most `maximumBody` bytes
/// of its body (S3's answers are small XML documents).
struct HTTPResponse: Sendable {
    static let maximumBody = 1 << 20

    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// How a transfer behaves on the network: time-outs, the CA file, the speed limit.
public struct TransferSettings: Sendable, Hashable {
    /// Seconds to establish a connection.
    public var connectTimeoutSeconds: Int = 20
    /// A transfer slower than 1 byte/s for this many seconds is abandoned as stalled.
    public var stallSeconds: Int = 60
    /// A PEM bundle of CAs to trust instead of the system's.
    public var caFile: String?
    /// Upload speed limit in bytes per second; nil for none.
    public var maxBytesPerSecond: Int64?

    public init() {}
}
