public import Foundation
public import TaskModel

extension TaskResult {
    /// Gives every section and nested task still open (no `endDate`) the end `date`, as a run
    /// that ends closes them.
    public mutating func closeOpenSections(at date: Date) {
        Self.close(&stepHistory, at: date)
    }

    private static func close(_ history: inout [AnyResult], at date: Date) {
        for index in history.indices {
            if var section = history[index].result as? SectionResult {
                if section.endDateTime == nil { section.endDateTime = date }
                close(&section.stepHistory, at: date)
                history[index] = AnyResult(section)
            } else if var task = history[index].result as? TaskResult {
                if task.endDateTime == nil { task.endDateTime = date }
                close(&task.stepHistory, at: date)
                history[index] = AnyResult(task)
            }
        }
    }
}
