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
