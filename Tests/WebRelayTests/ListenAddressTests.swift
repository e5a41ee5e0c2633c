import Testing
import WebRelay

/// `--listen HOST:PORT`: loopback only without TLS; any numeric address with it.
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

    static let tlsGood: [(String, ListenAddress)] = [
        ("0.0.0.0:8443", ListenAddress(host: "0.0.0.0", port: 8443)),
        ("192.168.1.2:8443", ListenAddress(host: "192.168.1.2", port: 8443)),
        ("[::]:8443", ListenAddress(host: "::", port: 8443)),
        ("[fe80:0::1]:8443", ListenAddress(host: "fe80::1", port: 8443)),
        ("localhost:8443", ListenAddress(host: "127.0.0.1", port: 8443)),
    ]
    static let tlsBad = ["kiosk.test:8443", "192.168.001.2:8443", "256.1.1.1:8443", "[::g]:8443", "0.0.0.0"]

    @Test(arguments: tlsGood.indices)
    func parsesAnyAddressWithTLS(row: Int) throws {
        #expect(try ListenAddress.parse(Self.tlsGood[row].0, tls: true) == Self.tlsGood[row].1)
    }

    @Test(arguments: tlsBad)
    func refusesANameOrABadAddressWithTLS(text: String) {
        #expect(throws: WebRelayError.badListenAddress(text)) { try ListenAddress.parse(text, tls: true) }
    }

    /// Which certificate names `activetask-web` prints as URLs for a listener.
    @Test func reachableNames() {
        let any4 = ListenAddress(host: "0.0.0.0", port: 1), any6 = ListenAddress(host: "::", port: 1), one = ListenAddress(host: "192.168.1.2", port: 1)
        #expect(any4.isReachable(as: "kiosk.test") && any4.isReachable(as: "127.0.0.1") && !any4.isReachable(as: "::1"))
        #expect(any6.isReachable(as: "::1") && any6.isReachable(as: "10.0.0.1"))
        #expect(one.isReachable(as: "192.168.1.2") && !one.isReachable(as: "127.0.0.1") && one.isReachable(as: "kiosk.test"))
    }

    /// What `activetask-web` prints: the addresses listened on, then the certificate's names
    /// each listener is reachable by, once each.
    @Test func urlsToOpen() {
        let loopback = ListenAddress.loopback(port: 8470)
        #expect(ListenAddress.urls(for: loopback, tlsNames: nil) == ["http://127.0.0.1:8470/", "http://[::1]:8470/"])
        #expect(ListenAddress.urls(for: [ListenAddress(host: "0.0.0.0", port: 8443)], tlsNames: ["kiosk.test", "127.0.0.1", "::1"])
                == ["https://kiosk.test:8443/", "https://127.0.0.1:8443/"])
        #expect(ListenAddress.urls(for: loopback, tlsNames: ["127.0.0.1"]) == ["https://127.0.0.1:8470/", "https://[::1]:8470/"])
    }

    @Test func describesAsAURLAuthority() {
        #expect(ListenAddress(host: "::1", port: 8470).description == "[::1]:8470")
        #expect(ListenAddress(host: "127.0.0.1", port: 8470).description == "127.0.0.1:8470")
    }
}
