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
        var bytes = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, text, &bytes) == 1 { return addressText(Array(bytes.prefix(4))) }
        if inet_pton(AF_INET6, text, &bytes) == 1 { return addressText(bytes) }
        return nil
    }

    /// The usual text of an address given as its 4 (IPv4) or 16 (IPv6) bytes in network order
    /// (as `inet_pton` and a certificate's subjectAltName hold it); nil for another length.
    static func addressText(_ bytes: [UInt8]) -> String? {
        let family: Int32
        switch bytes.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The URLs a server listening on `bound` can be opened at: the addresses listened on (not
    /// `0.0.0.0` or `::`), then the certificate's names (`tlsNames`) each listener is reachable
    /// by, once each, `https` with TLS.
    public static func urls(for bound: [ListenAddress], tlsNames: [String]?) -> [String] {
        let scheme = tlsNames == nil ? "http" : "https"
        let named = bound.flatMap { address in
            (tlsNames ?? []).filter(address.isReachable(as:)).map { ListenAddress(host: $0, port: address.port) }
        }
        var urls: [String] = []
        for address in bound.filter({ !$0.isUnspecified }) + named where !urls.contains("\(scheme)://\(address)/") {
            urls.append("\(scheme)://\(address)/")
        }
        return urls
    }

    /// As a URL's authority writes it.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
