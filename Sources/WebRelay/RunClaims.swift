import Foundation
import NIOConcurrencyHelpers

/// The runs browser tabs started, by the tab's key (docs/kiosk.md, "A tab's own run"), so that
/// a tab that reloads or reconnects goes on with its run. The UI makes its key once per tab
/// (random, kept in the tab's `sessionStorage`) and opens the WebSocket as `/ws?tab=KEY`; a
/// WebSocket without a key holds its run for as long as it is open. Bounded: a claim goes when
/// its run's `taskFinished` reaches its tab, after `lifetime`, or, beyond `capacity` claims, the
/// oldest first. Shared by the connections of one server.
final class RunClaims: Sendable {
    /// Claims kept at most.
    static let capacity = 256
    /// How long a claim is kept, at most (a tab gone for good never releases its own).
    static let lifetime: TimeInterval = 12 * 3600

    private struct Claim {
        var run: String
        var since: Date
    }

    private let claims = NIOLockedValueBox([String: Claim]())

    /// Whether `key` may name a tab: 16 to 128 letters, digits, `-` or `_`.
    static func isValidKey(_ key: String) -> Bool {
        (16...128).contains(key.utf8.count)
            && key.utf8.allSatisfy { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// The run `key`'s tab holds, if any.
    func run(of key: String, now: Date = Date()) -> String? {
        claims.withLockedValue { claims in
            guard let claim = claims[key] else { return nil }
            guard now.timeIntervalSince(claim.since) < Self.lifetime else {
                claims[key] = nil
                return nil
            }
            return claim.run
        }
    }

    /// `key`'s tab started `run`.
    func record(_ run: String, for key: String, now: Date = Date()) {
        claims.withLockedValue { claims in
            claims[key] = Claim(run: run, since: now)
            claims = claims.filter { now.timeIntervalSince($0.value.since) < Self.lifetime }
            while claims.count > Self.capacity, let oldest = claims.min(by: { $0.value.since < $1.value.since })?.key {
                claims[oldest] = nil
            }
        }
    }

    /// `key`'s run `run` ended.
    func release(_ run: String, for key: String) {
        claims.withLockedValue { claims in
            if claims[key]?.run == run { claims[key] = nil }
        }
    }
}
