/// The prompter's synthesised and loaded clips, bounded in bytes: the least recently used clip
/// is dropped first when a new one would go over the budget. Keeps a task's prompts ready
/// ahead of their steps without letting a long task's prompts grow without bound.
struct ClipCache: Sendable {
    /// Bytes of samples the cache may hold (16-bit mono: 2 bytes a frame).
    let budgetBytes: Int
    private var clips: [String: AudioClip] = [:]
    /// Keys from least to most recently used.
    private var recency: [String] = []
    private(set) var bytes = 0

    init(budgetBytes: Int) {
        self.budgetBytes = max(budgetBytes, 0)
    }

    /// The clip stored under `key`, marked as just used.
    mutating func clip(for key: String) -> AudioClip? {
        guard let clip = clips[key] else { return nil }
        touch(key)
        return clip
    }

    /// Stores `clip`, dropping the least recently used clips it needs room from. A clip larger
    /// than the whole budget is not kept.
    mutating func insert(_ clip: AudioClip, for key: String) {
        remove(key)
        let size = Self.size(of: clip)
        guard size <= budgetBytes else { return }
        while bytes + size > budgetBytes, let oldest = recency.first {
            remove(oldest)
        }
        clips[key] = clip
        recency.append(key)
        bytes += size
    }

    /// Keys from least to most recently used.
    var keys: [String] { recency }

    private mutating func touch(_ key: String) {
        if let index = recency.firstIndex(of: key) { recency.remove(at: index) }
        recency.append(key)
    }

    private mutating func remove(_ key: String) {
        guard let clip = clips.removeValue(forKey: key) else { return }
        bytes -= Self.size(of: clip)
        if let index = recency.firstIndex(of: key) { recency.remove(at: index) }
    }

    private static func size(of clip: AudioClip) -> Int { clip.samples.count * MemoryLayout<Int16>.size }
}
