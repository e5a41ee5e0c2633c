/// A fixed-capacity ring of readings kept sorted by time: storage is allocated once, inserts
/// are O(1) for in-order samples and O(k) for one arriving k places out of order.
struct SampleQueue: Sendable {
    private var storage: [TimedVector]
    private var head = 0
    private let mask: Int
    private(set) var count = 0

    /// Room for at least `minimumCapacity` readings (rounded up to a power of two).
    init(minimumCapacity: Int) {
        var capacity = 1
        while capacity < max(2, minimumCapacity) { capacity <<= 1 }
        storage = Array(repeating: .empty, count: capacity)
        mask = capacity - 1
    }

    var capacity: Int { storage.count }
    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == storage.count }
    var first: TimedVector? { count > 0 ? self[0] : nil }

    /// The reading `index` places after the oldest.
    subscript(index: Int) -> TimedVector {
        get { storage[(head + index) & mask] }
        set { storage[(head + index) & mask] = newValue }
    }

    /// Inserts in time order (after readings with the same time). Returns false when full.
    mutating func insert(_ reading: TimedVector) -> Bool {
        guard !isFull else { return false }
        var index = count
        count += 1
        while index > 0, self[index - 1].uptime > reading.uptime {
            self[index] = self[index - 1]
            index -= 1
        }
        self[index] = reading
        return true
    }

    /// Inserts in time order, making room by removing the oldest reading when full.
    /// Returns true when a reading was removed.
    mutating func insertDroppingOldest(_ reading: TimedVector) -> Bool {
        let dropped = isFull
        if dropped { removeFirst() }
        _ = insert(reading)
        return dropped
    }

    mutating func removeFirst() {
        guard count > 0 else { return }
        head = (head + 1) & mask
        count -= 1
    }
}
