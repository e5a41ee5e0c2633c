import Foundation

/// Runs a blocking call (waiting for a subprocess) on a thread of its own, so that it does not
/// hold one of the few Swift concurrency threads (two on a 2-core machine) that timing-sensitive
/// suites running in parallel need.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
