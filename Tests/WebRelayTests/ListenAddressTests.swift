import Testing
import WebRelay

/// `--listen HOST:PORT`: loopback only (no TLS yet).
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

    @Test func describesAsAURLAuthority() {
        #expect(ListenAddress(host: "::1", port: 8470).description == "[::1]:8470")
        #expect(ListenAddress(host: "127.0.0.1", port: 8470).description == "127.0.0.1:8470")
    }
}
