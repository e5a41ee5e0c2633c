public import AsyncActions
import TaskModel
import TaskNavigation

/// One async action of the run: its declaration, its controller and where it is in the
/// session's bookkeeping (the controller keeps its own lifecycle status).
struct ControllerEntry: Sendable {
    enum Phase: Sendable, Hashable {
        /// Created; permissions are being decided.
        case preparing
        /// Waiting for the answer to a permission question.
        case asking
        /// Permission granted; starts at the next step-timer start.
        case ready
        case running
        /// Stopped; its results are recorded.
        case stopped
        /// Failed or denied; its `_error` result is recorded.
        case failed
        case cancelled
    }

    var reference: AsyncActionReference
    var controller: any AsyncActionController
    var output: RecorderOutput
    var phase: Phase
    /// Relative paths of the files its results name.
    var files: [RunManifest.File] = []

    var key: String { reference.description }
    var isActive: Bool { phase == .preparing || phase == .asking || phase == .ready || phase == .running }
}
