public import TaskModel

extension TaskResult {
    /// Adds an async result to the task or section at `ownerPath` (task identifier first) in a
    /// finished result tree, replacing one with the same identifier; used by recovery, which
    /// has no `ResultHistory`. The latest result of a section visited twice gets it; an owner
    /// not found gives it to the task, so nothing is lost.
    public mutating func addAsyncResult(_ result: any ResultData, ownerPath: [String]) {
        if ownerPath.count > 1, ownerPath.first == identifier,
           Self.add(result, path: ownerPath.dropFirst(), into: &stepHistory) {
            return
        }
        Self.replaceOrAppend(result, in: &asyncResults)
    }

    private static func add(_ result: any ResultData, path: ArraySlice<String>, into history: inout [AnyResult]) -> Bool {
        guard let identifier = path.first,
              let index = history.lastIndex(where: { ($0.result is SectionResult || $0.result is TaskResult) && $0.result.identifier == identifier })
        else { return false }
        let rest = path.dropFirst()
        if var section = history[index].result as? SectionResult {
            if rest.isEmpty || !add(result, path: rest, into: &section.stepHistory) {
                replaceOrAppend(result, in: &section.asyncResults)
            }
            history[index] = AnyResult(section)
        } else if var task = history[index].result as? TaskResult {
            if rest.isEmpty || !add(result, path: rest, into: &task.stepHistory) {
                replaceOrAppend(result, in: &task.asyncResults)
            }
            history[index] = AnyResult(task)
        }
        return true
    }

    static func replaceOrAppend(_ result: any ResultData, in results: inout [AnyResult]) {
        if let index = results.firstIndex(where: { $0.result.identifier == result.identifier }) {
            results[index] = AnyResult(result)
        } else {
            results.append(AnyResult(result))
        }
    }
}
