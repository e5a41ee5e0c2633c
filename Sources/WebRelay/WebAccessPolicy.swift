import Foundation

/// Who may use `activetask-web` (docs/kiosk.md, "Security"): a request needs the token, as
/// `?token=` (DESIGN's URL; the page then drops it from the address and history), posted to
/// `/login` by the launch page (`WebLaunchPage`), or the cookie set from either; a `Host` naming
/// one of the addresses listened on or the public origin of a TLS reverse proxy in front; and,
/// when it has an `Origin` (a WebSocket always has), that address's `http://` origin or that
/// public `https://` origin. Pure: the handlers pass the request's parts in.
public struct WebAccessPolicy: Sendable {
    /// The cookie the token is kept in after the request that carried it. `__Host-`: only this
    /// origin, over a secure channel, may set it; Chromium and Firefox count loopback HTTP
    /// (the only plain HTTP served) as secure, so the prefix and `Secure` hold everywhere.
    public static let cookieName = "__Host-activetask-token"
    /// Where the launch page posts the token.
    public static let loginPath = "/login"

    public var token: String
    /// `host:port` authorities a request may name over plain HTTP (`127.0.0.1:8470`, `[::1]:8470`,
    /// `localhost:8470`).
    public var authorities: Set<String>
    /// The origins of TLS reverse proxies in front (`--public-origin`).
    public var publicOrigins: Set<PublicOrigin>

    public init(token: String, authorities: Set<String>, publicOrigins: Set<PublicOrigin> = []) {
        self.token = token
        self.authorities = authorities
        self.publicOrigins = publicOrigins
    }

    /// The authorities for the loopback addresses listened on (with the ports actually bound).
    public static func authorities(for addresses: [ListenAddress]) -> Set<String> {
        var names = Set<String>()
        for address in addresses {
            names.insert(address.description)
            names.insert("localhost:\(address.port)")
        }
        return names
    }

    /// Whether a request naming `host` came through a TLS reverse proxy (its public origin).
    public func isPublic(host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return publicOrigins.contains { $0.authority == host }
    }

    /// What a request is answered with.
    public enum Decision: Equatable, Sendable {
        /// Served; `setCookie` when the token came in the URL.
        case allow(setCookie: Bool)
        /// Refused with a status and a sentence for the log.
        case refuse(status: Int, reason: String)
    }

    /// Judges one request from its target (`/path?query`), `Host`, `Origin` and `Cookie` headers.
    public func decide(target: String, host: String?, origin: String?, cookies: [String]) -> Decision {
        guard let host, authorities.contains(host.lowercased()) || isPublic(host: host) else {
            return .refuse(status: 421, reason: "the Host \(host ?? "(none)") is not an address activetask-web listens on")
        }
        if let origin, !authorities.contains(where: { "http://\($0)" == origin.lowercased() }),
           !publicOrigins.contains(where: { $0.description == origin.lowercased() }) {
            return .refuse(status: 403, reason: "the Origin \(origin) is not this server")
        }
        if let given = Self.queryValue("token", in: target), Self.same(given, token) {
            return .allow(setCookie: true)
        }
        if cookies.flatMap(Self.cookieValues).contains(where: { $0.name == Self.cookieName && Self.same($0.value, token) }) {
            return .allow(setCookie: false)
        }
        return .refuse(status: 401, reason: "the token is missing or wrong")
    }

    /// The `Set-Cookie` value that keeps the token in the browser.
    public var cookie: String {
        "\(Self.cookieName)=\(token); Path=/; Secure; HttpOnly; SameSite=Strict"
    }

    /// Judges a `POST /login` from its `Host` and its form body (`token=…`,
    /// `application/x-www-form-urlencoded`). The Origin is not asked for: the launch page is a
    /// `file:` page (Origin `null`), and the token itself is what is checked.
    public func login(host: String?, form: String) -> Decision {
        guard let host, authorities.contains(host.lowercased()) || isPublic(host: host) else {
            return .refuse(status: 421, reason: "the Host \(host ?? "(none)") is not an address activetask-web listens on")
        }
        let plus = form.replacingOccurrences(of: "+", with: " ")
        if let given = Self.queryValue("token", in: "?" + plus), Self.same(given, token) {
            return .allow(setCookie: true)
        }
        return .refuse(status: 401, reason: "the token is missing or wrong")
    }

    /// The value of `name` in the target's query, percent-decoded.
    static func queryValue(_ name: String, in target: String) -> String? {
        guard let question = target.firstIndex(of: "?") else { return nil }
        for pair in target[target.index(after: question)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first == Substring(name), parts.count == 2 {
                return String(parts[1]).removingPercentEncoding
            }
        }
        return nil
    }

    /// The `name=value` pairs of one `Cookie` header.
    static func cookieValues(_ header: String) -> [(name: String, value: String)] {
        header.split(separator: ";").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces))
        }
    }

    /// Compares in time independent of where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
