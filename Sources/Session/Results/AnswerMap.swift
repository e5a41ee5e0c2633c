public import TaskModel

/// `answers.json`: every answer of a run in one flat map, keyed as SageResearch's archive keys
/// them: `<section>_<collection>_<identifier>`, where the section is the innermost section
/// (absent at the task's level) and the collection is left out when absent or named like the
/// answer. A later answer with the same key wins; answers without a value are left out.
public enum AnswerMap {
    public static func answers(in task: TaskResult) -> [String: JSONValue] {
        var map: [String: JSONValue] = [:]
        ResultTreeWalk.visit(task) { result, location in
            guard let answer = result as? AnswerResult, let value = answer.value, value != .null else { return }
            map[key(for: answer.identifier, at: location)] = value
        }
        return map
    }

    /// The key of the answer `identifier` at `location`.
    public static func key(for identifier: String, at location: ResultTreeWalk.Location) -> String {
        var key = ""
        if let section = location.section { key += "\(section)_" }
        if let collection = location.collection, collection != identifier { key += "\(collection)_" }
        return key + identifier
    }
}
