import TaskModel

extension TaskDefinition {
    /// Every async action identifier the task declares, with its owner's path.
    var allAsyncActionIdentifiers: [String] {
        var result = asyncActions.map { "\(identifier):\($0.identifier)" }
        for location in allLocations() {
            guard let step = step(at: location), let container = step.container else { continue }
            result += container.asyncActions.map { "\(stepPath(of: location)):\($0.identifier)" }
        }
        return result
    }
}
