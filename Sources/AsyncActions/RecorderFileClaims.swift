public import Foundation
import Synchronization

/// The files a recorder's output has claimed, shared by every copy of its `RecorderOutput`, so
/// that the session learns each file's name and the identifier of its file result as the
/// recorder names them (for the run manifest) without guessing from names.
public final class RecorderFileClaims: Sendable {
    /// One claimed file: its name in the directory and its logger identifier without the
    /// section prefix (`microphone_levels`), the identifier of its file result.
    public struct Claim: Sendable, Hashable {
        public var name: String
        public var identifier: String
    }

    private let claims = Mutex<[Claim]>([])

    public init() {}

    /// Every file claimed so far, oldest first.
    public var all: [Claim] { claims.withLock { $0 } }

    func add(_ claim: Claim) {
        claims.withLock { $0.append(claim) }
    }
}
