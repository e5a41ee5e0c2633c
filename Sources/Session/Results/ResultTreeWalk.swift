public import TaskModel

/// Walks a task result the way SageResearch's `RSDDataArchive` does: task and section results
/// open a new section level (their identifier becomes the section; the step path grows, the
/// run's own task identifier excluded), collections open a collection level, and every other
/// result is visited with the section, collection and step path it sits in. Step history
/// comes before async results at every level.
public enum ResultTreeWalk {
    /// Where a result sits in the tree.
    public struct Location: Sendable, Hashable {
        /// The innermost section or nested task; nil at the task's own level.
        public var section: String?
        /// The innermost collection; nil outside collections.
        public var collection: String?
        /// Section and collection identifiers joined by `/`, without the task identifier; nil at
        /// the task's own level.
        public var stepPath: String?
    }

    /// Calls `visit` for every result that is not a task or section result, in archive order.
    public static func visit(_ task: TaskResult, _ visit: (any ResultData, Location) -> Void) {
        walk(task.stepHistory + task.asyncResults, at: Location(), visit)
    }

    private static func walk(_ results: [AnyResult], at location: Location, _ visit: (any ResultData, Location) -> Void) {
        for item in results {
            let result = item.result
            if let branch = result as? TaskResult {
                walk(branch.stepHistory + branch.asyncResults, at: entering(section: branch.identifier, from: location), visit)
            } else if let branch = result as? SectionResult {
                walk(branch.stepHistory + branch.asyncResults, at: entering(section: branch.identifier, from: location), visit)
            } else {
                visit(result, location)
                if let collection = result as? CollectionResult {
                    var inner = location
                    inner.collection = collection.identifier
                    inner.stepPath = join(location.stepPath, collection.identifier)
                    walk(collection.children, at: inner, visit)
                }
            }
        }
    }

    private static func entering(section identifier: String, from location: Location) -> Location {
        Location(section: identifier, collection: nil, stepPath: join(location.stepPath, identifier))
    }

    private static func join(_ path: String?, _ identifier: String) -> String {
        path.map { "\($0)/\(identifier)" } ?? identifier
    }
}
