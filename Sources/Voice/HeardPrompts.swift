import Synchronization

/// The ids of prompts the playback thread has started, shared with the prompter actor.
final class HeardPrompts: Sendable {
    private let ids = Mutex<Set<UInt64>>([])

    func insert(_ id: UInt64) { ids.withLock { _ = $0.insert(id) } }

    func contains(_ id: UInt64) -> Bool { ids.withLock { $0.contains(id) } }
}
