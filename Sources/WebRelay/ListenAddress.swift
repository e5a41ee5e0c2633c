import Glibc

/// A host and port `activetask-web` listens on, as `--listen` writes it: `127.0.0.1:8470`,
/// `[::1]:8470`, `localhost:8470`; with TLS also any other numeric address (`0.0.0.0:8443`,
/// `192.168.1.20:8443`, `[::]:8443`).
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

    /// Reads `HOST:PORT`. Without `tls` only loopback addresses are accepted: the token must not
    /// cross a network in the clear. With it, any numeric IPv4 or IPv6 address.
    public static func parse(_ text: String, tls: Bool = false) throws(WebRelayError) -> ListenAddress {
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
        default:
            guard tls else { throw .notLoopback(text) }
            guard let numeric = numericAddress(String(host)) else { throw .badListenAddress(text) }
            return ListenAddress(host: numeric, port: number)
        }
    }

    /// Whether this is `0.0.0.0` or `::` (every interface), which no browser names.
    public var isUnspecified: Bool { host == "0.0.0.0" || host == "::" }

    /// Whether a browser may reach this listener by `name` (a certificate's DNS name or
    /// address): any DNS name; an address only of the family listened on, or the address itself.
    public func isReachable(as name: String) -> Bool {
        guard let numeric = Self.numericAddress(name) else { return true }
        switch host {
        case "0.0.0.0": return !numeric.contains(":")
        case "::": return true
        default: return numeric == host
        }
    }

    /// `text` as a numeric IPv4 or IPv6 address in its usual form, else nil.
    static func numericAddress(_ text: String) -> String? {
        var v4 = in_addr(), v6 = in6_addr()
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if inet_pton(AF_INET, text, &v4) == 1, inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)) != nil {
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        if inet_pton(AF_INET6, text, &v6) == 1, inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil {
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }

    /// As a URL's authority writes it.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
