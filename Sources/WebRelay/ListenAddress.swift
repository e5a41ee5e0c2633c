/// A host and port `activetask-web` listens on, as `--listen` writes it: `127.0.0.1:8470`,
/// `[::1]:8470`, `localhost:8470`; loopback only.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The numeric address (`127.0.0.1`, `::1`, …).
    public var host: String
    /// 0 picks a free port (tests).
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// The default port.
    public static let defaultPort = 8470

    /// 127.0.0.1 and ::1 on `port`.
    public static func loopback(port: Int = defaultPort) -> [ListenAddress] {
        [ListenAddress(host: "127.0.0.1", port: port), ListenAddress(host: "::1", port: port)]
    }

    /// Reads `HOST:PORT`. Only loopback addresses are accepted: the token must not cross a
    /// network in the clear, and TLS is a reverse proxy's (docs/kiosk.md, "TLS").
    public static func parse(_ text: String) throws(WebRelayError) -> ListenAddress {
        let host: Substring, port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .badListenAddress(text) }
            port = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .badListenAddress(text) }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard let number = Int(port), (0...65535).contains(number) else { throw .badListenAddress(text) }
        switch host {
        case "127.0.0.1", "localhost": return ListenAddress(host: "127.0.0.1", port: number)
        case "::1": return ListenAddress(host: "::1", port: number)
        default: throw .notLoopback(text)
        }
    }

    /// The URLs a server listening on `bound` can be opened at, then the public origins of the
    /// reverse proxies in front.
    public static func urls(for bound: [ListenAddress], publicOrigins: [PublicOrigin] = []) -> [String] {
        bound.map { "http://\($0)/" } + publicOrigins.map { "\($0)/" }
    }

    /// As a URL's authority writes it.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
