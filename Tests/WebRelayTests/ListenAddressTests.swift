import Testing
import WebRelay

/// `--listen HOST:PORT`: loopback only.
@Suite struct ListenAddressTests {
    static let good: [(String, ListenAddress)] = [
        ("127.0.0.1:8470", ListenAddress(host: "127.0.0.1", port: 8470)),
        ("localhost:80", ListenAddress(host: "127.0.0.1", port: 80)),
        ("[::1]:0", ListenAddress(host: "::1", port: 0)),
    ]
    static let bad: [(String, WebRelayError)] = [
        ("0.0.0.0:8470", .notLoopback("0.0.0.0:8470")),
        ("192.168.1.2:8470", .notLoopback("192.168.1.2:8470")),
        ("[::]:8470", .notLoopback("[::]:8470")),
        ("127.0.0.1", .badListenAddress("127.0.0.1")),
        ("127.0.0.1:99999", .badListenAddress("127.0.0.1:99999")),
        ("[::1]8470", .badListenAddress("[::1]8470")),
        ("127.0.0.1:http", .badListenAddress("127.0.0.1:http")),
    ]

    @Test(arguments: good.indices)
    func parses(row: Int) throws {
        #expect(try ListenAddress.parse(Self.good[row].0) == Self.good[row].1)
    }

    @Test(arguments: bad.indices)
    func refuses(row: Int) {
        #expect(throws: Self.bad[row].1) { try ListenAddress.parse(Self.bad[row].0) }
    }

    static let notLoopback = ["kiosk.test:8443", "10.0.0.1:8443", "[fe80::1]:8443"]

    /// Another address than loopback is never listened on: TLS is a reverse proxy's.
    @Test(arguments: notLoopback)
    func refusesEveryOtherAddress(text: String) {
        #expect(throws: WebRelayError.notLoopback(text)) { try ListenAddress.parse(text) }
    }

    /// What `activetask-web` prints: the addresses listened on, then the public origins of the
    /// reverse proxies in front.
    @Test func urlsToOpen() throws {
        let loopback = ListenAddress.loopback(port: 8470)
        #expect(ListenAddress.urls(for: loopback) == ["http://127.0.0.1:8470/", "http://[::1]:8470/"])
        #expect(ListenAddress.urls(for: loopback, publicOrigins: [try PublicOrigin.parse("https://tablet.example:8443")])
                == ["http://127.0.0.1:8470/", "http://[::1]:8470/", "https://tablet.example:8443/"])
    }

    @Test func describesAsAURLAuthority() {
        #expect(ListenAddress(host: "::1", port: 8470).description == "[::1]:8470")
        #expect(ListenAddress(host: "127.0.0.1", port: 8470).description == "127.0.0.1:8470")
    }
}
