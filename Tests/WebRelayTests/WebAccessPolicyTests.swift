import Testing
import WebRelay

/// Who may use activetask-web (docs/kiosk.md, "Security"): the token in the URL, the launch
/// page's form or the cookie, the Host among the addresses listened on, the Origin this server.
@Suite struct WebAccessPolicyTests {
    static let policy = WebAccessPolicy(token: "abc123", authorities: WebAccessPolicy.authorities(for: ListenAddress.loopback(port: 8470)))

    static let rows: [(target: String, host: String?, origin: String?, cookies: [String], expected: WebAccessPolicy.Decision)] = [
        ("/?token=abc123", "127.0.0.1:8470", nil, [], .allow(setCookie: true)),
        ("/js/app.js", "127.0.0.1:8470", nil, ["__Host-activetask-token=abc123"], .allow(setCookie: false)),
        ("/", "localhost:8470", "http://localhost:8470", ["a=b; __Host-activetask-token=abc123"], .allow(setCookie: false)),
        ("/ws", "[::1]:8470", "http://[::1]:8470", ["__Host-activetask-token=abc123"], .allow(setCookie: false)),
        // The cookie's name before the __Host- prefix is no longer read.
        ("/", "127.0.0.1:8470", nil, ["activetask-token=abc123"], .refuse(status: 401, reason: "the token is missing or wrong")),
        ("/", "127.0.0.1:8470", nil, [], .refuse(status: 401, reason: "the token is missing or wrong")),
        ("/?token=abc124", "127.0.0.1:8470", nil, [], .refuse(status: 401, reason: "the token is missing or wrong")),
        ("/?token=", "127.0.0.1:8470", nil, [], .refuse(status: 401, reason: "the token is missing or wrong")),
        ("/?token=abc1234", "127.0.0.1:8470", nil, ["__Host-activetask-token=abc12"], .refuse(status: 401, reason: "the token is missing or wrong")),
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

    /// `POST /login`'s form body: the token as the launch page posts it (any Origin: the page is
    /// a `file:` page), the Host ours.
    static let loginRows: [(host: String?, form: String, expected: WebAccessPolicy.Decision)] = [
        ("127.0.0.1:8470", "token=abc123", .allow(setCookie: true)),
        ("localhost:8470", "other=1&token=abc123", .allow(setCookie: true)),
        ("[::1]:8470", "token=abc%31%323", .allow(setCookie: true)),
        ("127.0.0.1:8470", "token=abc124", .refuse(status: 401, reason: "the token is missing or wrong")),
        ("127.0.0.1:8470", "token=", .refuse(status: 401, reason: "the token is missing or wrong")),
        ("127.0.0.1:8470", "", .refuse(status: 401, reason: "the token is missing or wrong")),
        ("127.0.0.1:8470", "tok=abc123", .refuse(status: 401, reason: "the token is missing or wrong")),
        ("127.0.0.1:8470", "token=abc123+", .refuse(status: 401, reason: "the token is missing or wrong")),
        ("evil.example:8470", "token=abc123", .refuse(status: 421, reason: "the Host evil.example:8470 is not an address activetask-web listens on")),
        (nil, "token=abc123", .refuse(status: 421, reason: "the Host (none) is not an address activetask-web listens on")),
    ]

    @Test(arguments: loginRows.indices)
    func login(row: Int) {
        let (host, form, expected) = Self.loginRows[row]
        #expect(Self.policy.login(host: host, form: form) == expected, "\(Self.loginRows[row])")
    }

    @Test func cookieIsHostPrefixedAndSecure() {
        #expect(Self.policy.cookie == "__Host-activetask-token=abc123; Path=/; Secure; HttpOnly; SameSite=Strict")
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
