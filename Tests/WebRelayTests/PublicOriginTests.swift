import Testing
import WebRelay

/// `--public-origin`: the https origin of a TLS reverse proxy in front (docs/kiosk.md, "TLS").
@Suite struct PublicOriginTests {
    static let good: [(String, authority: String)] = [
        ("https://tablet.example:8443", "tablet.example:8443"),
        ("https://Tablet.Example:8443/", "tablet.example:8443"),
        ("https://tablet.example", "tablet.example"),
        ("https://tablet.example:443", "tablet.example"),
        ("https://192.168.1.20:8443", "192.168.1.20:8443"),
        ("https://[fe80::1]:8443", "[fe80::1]:8443"),
    ]
    static let bad = [
        "http://tablet.example:8443", "tablet.example:8443", "https://", "https://tablet.example:8443/kiosk",
        "https://tablet.example:0", "https://tablet.example:99999", "https://tablet.example:https", "https://user@tablet.example",
        "https://tablet.example?x=1", "https://[fe80::1", "https://tab let.example", "https://tablet_example",
        "https://a]b.example", "https://[fe80::g]:8443", "https://[]:8443", "https://tablet.exämple",
    ]

    @Test(arguments: good.indices)
    func parses(row: Int) throws {
        let origin = try PublicOrigin.parse(Self.good[row].0)
        #expect(origin.authority == Self.good[row].authority)
        #expect(origin.description == "https://\(Self.good[row].authority)")
    }

    @Test(arguments: bad)
    func refuses(text: String) {
        #expect(throws: WebRelayError.badPublicOrigin(text)) { try PublicOrigin.parse(text) }
    }

    /// Timeout options: seconds above 0.
    @Test(arguments: [("10", Int64(10_000_000_000)), ("0.5", 500_000_000), ("2", 2_000_000_000)])
    func timeout(text: String, nanoseconds: Int64) throws {
        #expect(try WebRelayConfiguration.timeout(text, option: "--request-timeout").nanoseconds == nanoseconds)
    }

    @Test(arguments: ["0", "-1", "ten", "", "nan", "inf", "1e9"])
    func refusesATimeout(text: String) {
        #expect(throws: WebRelayError.badTimeout(option: "--ping-interval", value: text)) {
            try WebRelayConfiguration.timeout(text, option: "--ping-interval")
        }
    }
}
