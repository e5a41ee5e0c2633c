/// The `https://` origin a TLS reverse proxy in front of `activetask-web` serves the kiosk at
/// (`--public-origin https://tablet.example:8443`, docs/kiosk.md, "TLS"): requests naming it in
/// `Host` and `Origin` are accepted although activetask-web itself listens on loopback only, and
/// the cookie set for them is `Secure`.
public struct PublicOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `host[:port]` as a browser writes it in `Host`, lowercased; the port left out when 443.
    public let authority: String

    /// Reads `https://HOST[:PORT]` (a trailing `/` is allowed); anything else, a path, a query,
    /// user info or `http://` included, is refused with what to write instead.
    public static func parse(_ text: String) throws(WebRelayError) -> PublicOrigin {
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") else { throw .badPublicOrigin(text) }
        var rest = lower.dropFirst("https://".count)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains(where: { "/?#@ ".contains($0) }) else { throw .badPublicOrigin(text) }
        let host: Substring, port: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .badPublicOrigin(text) }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw .badPublicOrigin(text) }
            port = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            port = rest[rest.index(after: colon)...]
        } else {
            host = rest
            port = nil
        }
        // A DNS name or IPv4 address, or an IPv6 address in brackets.
        let bracketed = host.hasPrefix("[")
        let name = bracketed ? host.dropFirst().dropLast() : host
        let fits: (Character) -> Bool = bracketed
            ? { "0123456789abcdef:.".contains($0) }
            : { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." }
        guard !name.isEmpty, name.allSatisfy(fits) else {
            throw .badPublicOrigin(text)
        }
        guard let port else { return PublicOrigin(authority: String(host)) }
        guard let number = Int(port), (1...65535).contains(number) else { throw .badPublicOrigin(text) }
        return PublicOrigin(authority: number == 443 ? String(host) : "\(host):\(number)")
    }

    /// The origin as a browser sends it in `Origin`.
    public var description: String { "https://\(authority)" }
}
