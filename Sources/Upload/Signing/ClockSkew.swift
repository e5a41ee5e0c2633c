public import Foundation
import Synchronization

/// How far the storage's clock is from the device's, learnt from the `Date` of an answer that
/// refused a request as `RequestTimeTooSkewed` (docs/upload.md, "Retries and held errors").
/// Requests are then signed with the device's clock plus this offset, so a device whose clock
/// is off still uploads, and the offset is logged.
public final class ClockSkew: Sendable {
    private let offset = Mutex<Double>(0)

    public init() {}

    /// Seconds to add to the device's clock (the storage's clock minus the device's).
    public var seconds: Double { offset.withLock { $0 } }

    /// The device's clock corrected by the offset.
    public func now(_ clock: Date) -> Date { clock.addingTimeInterval(seconds) }

    /// Records the offset from the storage's `Date` header seen at `local`; nil when `header`
    /// is not an HTTP date (then nothing changes).
    @discardableResult
    public func correct(serverDate header: String, at local: Date) -> Double? {
        guard let server = Self.httpDate(header) else { return nil }
        let seconds = server.timeIntervalSince(local)
        offset.withLock { $0 = seconds }
        return seconds
    }

    /// An HTTP date (RFC 9110, IMF-fixdate: `Sun, 29 Nov 2026 05:40:47 GMT`).
    public static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
