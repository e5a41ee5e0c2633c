import Testing
import WebRelay

/// Who may use activetask-web (docs/kiosk.md, "Security"): the token in the URL or the cookie,
/// the Host among the addresses listened on, the Origin this server.
@Suite struct WebAccessPolicyTests {
    static let policy = WebAccessPolicy(token: "abc123", authorities: WebAccessPolicy.authorities(for: ListenAddress.loopback(port: 8470)))

    static let rows: [(target: String, host: String?, origin: String?, cookies: [String], expected: WebAccessPolicy.Decision)] = [
        ("/?token=abc123", "127.0.0.1:8470", nil, [], .allow(setCookie: true)),
        ("/js/app.js", "127.0.0.1:8470", nil, ["activetask-token=abc123"], .allow(setCookie: false)),
        ("/", "localhost:8470", "http://localhost:8470", ["a=b; activetask-token=abc123"], .allow(setCookie: false)),
        ("/ws", "[::1]:8470", "http://[::1]:8470", ["activetask-token=abc123"], .allow(setCookie: false)),
        ("/", "127.0.0.1:8470", nil, [], .refuse(status: 401, reason: "the token is missing or wrong")),
        ("/?token=abc124", "127.0.0.1:8470", nil, [], .refuse(status: 401, reason: "the token is missing or wrong")),
        ("/?token=", "127.0.0.1:8470", nil, [], .refuse(status: 401, reason: "the token is missing or wrong")),
        ("/?token=abc1234", "127.0.0.1:8470", nil, ["activetask-token=abc12"], .refuse(status: 401, reason: "the token is missing or wrong")),
        ("/?token=abc123", "evil.example:8470", nil, [], .refuse(status: 421, reason: "the Host evil.example:8470 is not an address activetask-web listens on")),
        ("/?token=abc123", "127.0.0.1:9999", nil, [], .refuse(status: 421, reason: "the Host 127.0.0.1:9999 is not an address activetask-web listens on")),
        ("/?token=abc123", nil, nil, [], .refuse(status: 421, reason: "the Host (none) is not an address activetask-web listens on")),
        ("/?token=abc123", "127.0.0.1:8470", "http://evil.example", [], .refuse(status: 403, reason: "the Origin http://evil.example is not this server")),
        ("/?token=abc123", "127.0.0.1:8470", "https://127.0.0.1:8470", [], .refuse(status: 403, reason: "the Origin https://127.0.0.1:8470 is not this server")),
        ("/?token=abc123", "127.0.0.1:8470", "null", [], .refuse(status: 403, reason: "the Origin null is not this server")),
    ]

    @Test(arguments: rows.indices)
    func decision(row: Int) {
        let (target, host, origin, cookies, expected) = Self.rows[row]
        #expect(Self.policy.decide(target: target, host: host, origin: origin, cookies: cookies) == expected, "\(Self.rows[row])")
    }

    /// Behind a TLS reverse proxy (docs/kiosk.md, "TLS"): its public origin's Host and https
    /// Origin besides the loopback addresses; the port 443 left out as browsers leave it out.
    static let proxyPolicy = WebAccessPolicy(
        token: "abc123", authorities: WebAccessPolicy.authorities(for: ListenAddress.loopback(port: 8470)),
        publicOrigins: [try! PublicOrigin.parse("https://Tablet.example:8443"), try! PublicOrigin.parse("https://kiosk.test:443/")])

    static let proxyRows: [(host: String, origin: String?, expected: WebAccessPolicy.Decision, isPublic: Bool)] = [
        ("tablet.example:8443", "https://tablet.example:8443", .allow(setCookie: true), true),
        ("TABLET.example:8443", nil, .allow(setCookie: true), true),
        ("kiosk.test", "https://kiosk.test", .allow(setCookie: true), true),
        ("127.0.0.1:8470", "http://127.0.0.1:8470", .allow(setCookie: true), false),
        ("tablet.example:8443", "http://tablet.example:8443", .refuse(status: 403, reason: "the Origin http://tablet.example:8443 is not this server"), true),
        ("127.0.0.1:8470", "https://127.0.0.1:8470", .refuse(status: 403, reason: "the Origin https://127.0.0.1:8470 is not this server"), false),
        ("kiosk.test:443", nil, .refuse(status: 421, reason: "the Host kiosk.test:443 is not an address activetask-web listens on"), false),
        ("tablet.example:8470", nil, .refuse(status: 421, reason: "the Host tablet.example:8470 is not an address activetask-web listens on"), false),
        ("other.test:8443", nil, .refuse(status: 421, reason: "the Host other.test:8443 is not an address activetask-web listens on"), false),
    ]

    @Test(arguments: proxyRows.indices)
    func proxyDecision(row: Int) {
        let (host, origin, expected, isPublic) = Self.proxyRows[row]
        #expect(Self.proxyPolicy.decide(target: "/?token=abc123", host: host, origin: origin, cookies: []) == expected, "\(Self.proxyRows[row])")
        #expect(Self.proxyPolicy.isPublic(host: host) == isPublic, "\(Self.proxyRows[row])")
    }
}
