/// Where a step sits in a task: the index of each step on the way down, outermost first
/// (`[1, 5]` is the sixth step of the section that is the task's second step).
public struct StepLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var indexPath: [Int]

    public init(_ indexPath: [Int]) {
        self.indexPath = indexPath
    }

    /// The task itself (the outermost container).
    public static let root = StepLocation([])

    /// The location of the container holding this step; nil for the root.
    public var parent: StepLocation? {
        indexPath.isEmpty ? nil : StepLocation(Array(indexPath.dropLast()))
    }

    /// The locations of the containers above this step, outermost first, the root included.
    public var ancestors: [StepLocation] {
        (0..<indexPath.count).map { StepLocation(Array(indexPath.prefix($0))) }
    }

    /// True when `self` is `other` or lies inside it.
    public func isWithin(_ other: StepLocation) -> Bool {
        indexPath.starts(with: other.indexPath)
    }

    /// This location with `index` appended.
    public func appending(_ index: Int) -> StepLocation {
        StepLocation(indexPath + [index])
    }

    public static func < (lhs: StepLocation, rhs: StepLocation) -> Bool {
        lhs.indexPath.lexicographicallyPrecedes(rhs.indexPath)
    }

    public var description: String { indexPath.map(String.init).joined(separator: ".") }
}
