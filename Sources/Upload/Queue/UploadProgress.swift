public import Foundation
import Synchronization

/// Bytes sent of the uploads under way, for the status line systemd shows
/// (`UploadStatusLine`). `ArchiveUploader` reports an upload's size when it starts sending and
/// the bytes the storage has confirmed after every part (a single PUT counts when it is done);
/// the service reads it from its own task. Shared between tasks, so it locks.
public final class UploadProgress: Sendable {
    /// One upload under way: bytes confirmed and bytes in all.
    public struct Transfer: Sendable, Hashable {
        public var sent: Int64
        public var total: Int64

        public init(sent: Int64, total: Int64) {
            self.sent = sent
            self.total = total
        }
    }

    private let transfers = Mutex<[UUID: Transfer]>([:])

    public init() {}

    /// The run's upload has `sent` of `total` bytes in the storage.
    func report(_ taskRunUUID: UUID, sent: Int64, total: Int64) {
        transfers.withLock { $0[taskRunUUID] = Transfer(sent: sent, total: total) }
    }

    /// The run's upload ended (either way).
    func end(_ taskRunUUID: UUID) {
        _ = transfers.withLock { $0.removeValue(forKey: taskRunUUID) }
    }

    /// The uploads under way now.
    public var current: [UUID: Transfer] {
        transfers.withLock { $0 }
    }
}
