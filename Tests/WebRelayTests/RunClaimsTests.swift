import Foundation
import Testing
@testable import WebRelay

/// The runs tabs started, by their keys (docs/kiosk.md, "A tab's own run"): which keys are keys,
/// and how the claims stay bounded.
@Suite struct RunClaimsTests {
    static let keys: [(key: String, valid: Bool)] = [
        ("0123456789abcdef", true),
        (String(repeating: "a", count: 128), true),
        ("Tab_key-0123456789", true),
        ("0123456789abcde", false),
        (String(repeating: "a", count: 129), false),
        ("0123456789abcdef/", false),
        ("0123456789abcdef ", false),
        ("0123456789abcdéf0", false),
        ("", false),
    ]

    @Test(arguments: keys.indices)
    func key(row: Int) {
        let (key, valid) = Self.keys[row]
        #expect(RunClaims.isValidKey(key) == valid, "\(key)")
    }

    @Test func aClaimIsKeptUntilItsRunEndsOrItsLifetime() {
        let claims = RunClaims()
        let start = Date(timeIntervalSince1970: 1_000_000)
        claims.record("RUN-A", for: "tab-a-0123456789", now: start)
        #expect(claims.run(of: "tab-a-0123456789", now: start) == "RUN-A")
        #expect(claims.run(of: "tab-b-0123456789", now: start) == nil)
        // Another run's end releases nothing; its own does.
        claims.release("RUN-B", for: "tab-a-0123456789")
        #expect(claims.run(of: "tab-a-0123456789", now: start) == "RUN-A")
        claims.release("RUN-A", for: "tab-a-0123456789")
        #expect(claims.run(of: "tab-a-0123456789", now: start) == nil)
        // A claim never released goes after its lifetime.
        claims.record("RUN-C", for: "tab-c-0123456789", now: start)
        #expect(claims.run(of: "tab-c-0123456789", now: start.addingTimeInterval(RunClaims.lifetime - 1)) == "RUN-C")
        #expect(claims.run(of: "tab-c-0123456789", now: start.addingTimeInterval(RunClaims.lifetime)) == nil)
    }

    @Test func beyondTheCapacityTheOldestGoes() {
        let claims = RunClaims()
        let start = Date(timeIntervalSince1970: 1_000_000)
        for index in 0...RunClaims.capacity {
            claims.record("RUN-\(index)", for: "tab-\(index)-0123456789", now: start.addingTimeInterval(Double(index)))
        }
        let now = start.addingTimeInterval(Double(RunClaims.capacity))
        #expect(claims.run(of: "tab-0-0123456789", now: now) == nil)
        #expect(claims.run(of: "tab-1-0123456789", now: now) == "RUN-1")
        #expect(claims.run(of: "tab-\(RunClaims.capacity)-0123456789", now: now) == "RUN-\(RunClaims.capacity)")
    }
}
