import TaskModel

/// The file results of a recorder's results, with those inside a collection listed one by one.
func fileResults(_ results: [any ResultData]) -> [FileResult] {
    results.flatMap { result -> [FileResult] in
        if let collection = result as? CollectionResult { return collection.children.compactMap { $0.result as? FileResult } }
        return (result as? FileResult).map { [$0] } ?? []
    }
}
