import AsyncActions
import TaskModel
import TaskNavigation

/// One async action of the run: its declaration, its controller, its output and its files.
/// Its phase in the session is the machine's (`ActionTable`); the controller keeps its own
/// lifecycle status.
struct ControllerEntry: Sendable {
    var reference: AsyncActionReference
    var controller: any AsyncActionController
    var output: RecorderOutput
    /// Relative paths of the files its results name.
    var files: [RunManifest.File] = []

    var key: String { reference.description }
}
