public import Foundation
public import TaskModel

/// Builds a run's task result move by move with SageResearch 4's rules (JsonModel
/// `BranchNodeResult`, RSDTaskViewModel), as docs/runs.md describes:
///
/// - `stepHistory` only grows: a step shown again appends its new result, replacing the last
///   entry only when that is the same step.
/// - `path` is the current path, each move with its direction; going back to a step trims the
///   path from that step's last marker, and the results from that point on are kept aside as
///   previous results for pre-filling (`previousResult(for:)`).
/// - A section's result enters its parent's history when the section is left going forward
///   (RSDTaskViewModel appends a child path's result as it completes), not when it begins:
///   while a section is open its parent's history ends with the step before it. Going back
///   into it resumes the same result (appended again when it is left forward, unless it is
///   still its parent's last entry); entering it forward again starts a new one (whose
///   previous results are the old one's steps). When the run ends, sections still open are
///   appended too, so that what they recorded (and an `abandonAssessment` answer) is kept.
/// - Async results go into the result of the task or section that declared them, even after
///   that section ended.
///
/// A pure value: the session calls it on every move and writes `taskResult()` where it wants.
public struct ResultHistory: Sendable {
    /// What an open or closed branch stands for in the encoded result.
    public enum BranchKind: Sendable, Hashable {
        /// A section or subtask: a `section` result.
        case section
        /// A `taskInfo` step's nested task: a `task` result with the run's UUID.
        case task
    }

    private enum Entry: Sendable {
        case step(AnyResult)
        case branch(Int)
    }

    private struct Branch: Sendable {
        var kind: BranchKind
        var path: [String]
        var startDate: Date
        var endDate: Date?
        var entries: [Entry] = []
        var asyncResults: [AnyResult] = []
        var markers: [PathMarker] = []
        var previousResults: [AnyResult] = []
        /// True once the branch is an entry of its parent's history.
        var attached = false

        var identifier: String { path.last ?? "" }
    }

    public let taskIdentifier: String
    public let taskRunUUID: UUID
    public var assessmentIdentifier: String?
    public var schemaIdentifier: String?
    public var versionString: String?

    /// Every branch ever opened; index 0 is the task. Entries refer to branches by index, so a
    /// section resumed by going back is one result wherever its parent lists it.
    private var branches: [Branch]
    /// The open branches, outermost first; always starts with the task.
    private var open: [Int] = [0]
    /// The latest branch for each section path.
    private var latest: [[String]: Int] = [:]

    public init(taskIdentifier: String, taskRunUUID: UUID, startDate: Date,
                assessmentIdentifier: String? = nil, schemaIdentifier: String? = nil, versionString: String? = nil) {
        self.taskIdentifier = taskIdentifier
        self.taskRunUUID = taskRunUUID
        self.assessmentIdentifier = assessmentIdentifier
        self.schemaIdentifier = schemaIdentifier
        self.versionString = versionString
        branches = [Branch(kind: .task, path: [taskIdentifier], startDate: startDate)]
    }

    /// Rebuilds the history of a saved run from its task result (docs/runs.md, save and
    /// resume): every section result becomes a closed branch again, the sections on `stepPath`
    /// (the step where the run was saved, task identifier first) are open, and the task has no
    /// end date. The session then shows the saved step again.
    public init(resuming result: TaskResult, at stepPath: [String]) {
        self.init(taskIdentifier: result.identifier, taskRunUUID: result.taskRunUUID, startDate: result.startDate,
                  assessmentIdentifier: result.assessmentIdentifier, schemaIdentifier: result.schemaIdentifier,
                  versionString: result.versionString)
        branches[0].entries = restore(result.stepHistory, under: [result.identifier])
        branches[0].asyncResults = result.asyncResults
        branches[0].markers = result.path
        guard stepPath.first == result.identifier else { return }
        for level in 2..<max(2, stepPath.count) {
            guard let index = latest[Array(stepPath.prefix(level))] else { break }
            branches[index].endDate = nil
            open.append(index)
        }
    }

    private mutating func restore(_ history: [AnyResult], under path: [String]) -> [Entry] {
        history.map { item -> Entry in
            let branchPath = path + [item.result.identifier]
            let branch: Branch
            let children: [AnyResult]
            if let section = item.result as? SectionResult {
                branch = Branch(kind: .section, path: branchPath, startDate: section.startDate, endDate: section.endDateTime,
                                asyncResults: section.asyncResults, markers: section.path)
                children = section.stepHistory
            } else if let task = item.result as? TaskResult {
                branch = Branch(kind: .task, path: branchPath, startDate: task.startDate, endDate: task.endDateTime,
                                asyncResults: task.asyncResults, markers: task.path)
                children = task.stepHistory
            } else {
                return .step(item)
            }
            branches.append(branch)
            let index = branches.count - 1
            branches[index].attached = true
            latest[branchPath] = index
            let entries = restore(children, under: branchPath)
            branches[index].entries = entries
            return .branch(index)
        }
    }

    /// The paths of the open sections, outermost first (the task itself not included).
    public var openSectionPaths: [[String]] { open.dropFirst().map { branches[$0].path } }

    /// True once `finish(endDate:)` was called.
    public var isFinished: Bool { branches[0].endDate != nil }

    // MARK: - Moves

    /// Records that the step at `path` (task identifier first) is shown with a new `result`:
    /// sections not on the path end, sections on it that are not open begin (both at the
    /// result's start date), and the step's result goes into its section's history.
    public mutating func showStep(path: [String], result: any ResultData, direction: PathMarker.Direction) throws(ResultHistoryError) {
        try check(path, minimumCount: 2)
        try align(to: Array(path.dropLast()), date: result.startDate, direction: direction)
        let branch = open[open.count - 1]
        let identifier = path[path.count - 1]
        if direction == .backward { trim(branch, from: identifier) }
        append(.step(AnyResult(result)), to: branch)
        mark(branch, identifier, direction)
    }

    /// Begins the section (or nested task) at `path` when it is not already open, ending any
    /// open section not on its path. Going `backward` into a section resumes its last result
    /// when `resume` is true (the back command); a forward command that jumps back to a visited
    /// section (`resume` false) trims the path there and starts a new result, as
    /// RSDTaskViewModel makes a new path component for every forward move into a section.
    public mutating func enterSection(path: [String], startDate: Date, direction: PathMarker.Direction = .forward,
                                      kind: BranchKind = .section, resume: Bool = true) throws(ResultHistoryError) {
        try check(path, minimumCount: 2)
        try align(to: Array(path.dropLast()), date: startDate, direction: direction, resume: resume)
        if branches[open[open.count - 1]].path == path { return }
        openBranch(path: path, date: startDate, direction: direction, kind: kind, resume: resume)
    }

    /// Ends the section at `path` and every section open inside it; their results are final
    /// (until a move goes back into them). Left `forward`, each enters its parent's history;
    /// left `backward`, none does. Does nothing when the section is not open.
    public mutating func leaveSection(path: [String], endDate: Date, direction: PathMarker.Direction = .forward) {
        guard path.count > 1, let level = open.firstIndex(where: { branches[$0].path == path }) else { return }
        while open.count > level { closeInnermost(at: endDate, attach: direction == .forward) }
    }

    /// Replaces the latest result of the step at `path`, such as the result the front end sent
    /// with "forward" or the same result with its `endDate` set. A step not in the history gets
    /// the result appended, so nothing sent is lost.
    public mutating func setResult(_ result: any ResultData, forStep path: [String]) throws(ResultHistoryError) {
        try check(path, minimumCount: 2)
        let branch = branchIndex(for: Array(path.dropLast())) ?? open[open.count - 1]
        let identifier = path[path.count - 1]
        if let index = branches[branch].entries.lastIndex(where: { identifierOf($0) == identifier && isStep($0) }) {
            branches[branch].entries[index] = .step(AnyResult(result))
        } else {
            append(.step(AnyResult(result)), to: branch)
        }
    }

    /// Adds an async action's result to the task or section at `ownerPath` that declared it,
    /// replacing one with the same identifier. An owner never entered gives its results to the
    /// task, so nothing is lost.
    public mutating func appendAsyncResult(_ result: any ResultData, ownerPath: [String]) {
        let branch = branchIndex(for: ownerPath) ?? 0
        if let index = branches[branch].asyncResults.firstIndex(where: { $0.result.identifier == result.identifier }) {
            branches[branch].asyncResults[index] = AnyResult(result)
        } else {
            branches[branch].asyncResults.append(AnyResult(result))
        }
    }

    /// Ends every open section and the task at `endDate`; the open sections enter their
    /// parents' histories, so that nothing they hold is lost.
    public mutating func finish(endDate: Date) {
        while open.count > 1 { closeInnermost(at: endDate, attach: true) }
        branches[0].endDate = endDate
    }

    // MARK: - Reading

    /// The result left behind for the step at `path` by going back (or by an earlier visit of
    /// its section), for a front end to pre-fill the step; nil when there is none.
    public func previousResult(for path: [String]) -> AnyResult? {
        guard path.count > 1, let branch = branchIndex(for: Array(path.dropLast())) else { return nil }
        return branches[branch].previousResults.last { $0.result.identifier == path[path.count - 1] }
    }

    /// The latest result of the step at `path` in the history; nil when it was never shown.
    public func currentResult(for path: [String]) -> AnyResult? {
        guard path.count > 1, let branch = branchIndex(for: Array(path.dropLast())) else { return nil }
        for entry in branches[branch].entries.reversed() {
            if case .step(let result) = entry, result.result.identifier == path[path.count - 1] { return result }
        }
        return nil
    }

    /// The task result so far, as SageResearch has it: an open section is not yet in its
    /// parent's history (unless it was appended on an earlier visit, then with no `endDate`);
    /// the task has an end date only after `finish(endDate:)`. `includingOpenSections` appends
    /// the open sections as well, with no end date, for a run saved to be resumed there.
    public func taskResult(includingOpenSections: Bool = false) -> TaskResult {
        guard includingOpenSections, open.count > 1 else { return result(of: self) }
        var copy = self
        while copy.open.count > 1 {
            let index = copy.open.removeLast()
            copy.attach(index, to: copy.open[copy.open.count - 1])
        }
        return result(of: copy)
    }

    /// The results of the open sections, outermost first, as SageResearch's section path
    /// components hold them while they run: each with its own `stepHistory` so far (a section
    /// open inside it not yet in it) and no end date. `taskResult()` has none of them until
    /// they are left forward; a front end reads the answers of the section shown here
    /// (docs/runs.md).
    public var openSectionResults: [AnyResult] {
        // An open branch has no end date: `openBranch` makes or resumes it without one.
        open.dropFirst().map { materialize(.branch($0)) }
    }

    private func result(of history: ResultHistory) -> TaskResult {
        let root = history.branches[0]
        return TaskResult(
            identifier: taskIdentifier, taskRunUUID: taskRunUUID, startDate: root.startDate, endDate: root.endDate,
            stepHistory: root.entries.map(history.materialize), asyncResults: root.asyncResults, path: root.markers,
            assessmentIdentifier: assessmentIdentifier, schemaIdentifier: schemaIdentifier, versionString: versionString)
    }

    // MARK: - Internals

    private func check(_ path: [String], minimumCount: Int) throws(ResultHistoryError) {
        guard path.count >= minimumCount, path[0] == taskIdentifier else {
            throw ResultHistoryError(path: path, taskIdentifier: taskIdentifier)
        }
    }

    /// Makes the open branches exactly the sections of `parentPath`.
    private mutating func align(to parentPath: [String], date: Date, direction: PathMarker.Direction,
                                resume: Bool = true) throws(ResultHistoryError) {
        try check(parentPath, minimumCount: 1)
        var common = 1
        while common < open.count, common < parentPath.count,
              branches[open[common]].path == Array(parentPath.prefix(common + 1)) {
            common += 1
        }
        while open.count > common { closeInnermost(at: date, attach: direction == .forward) }
        for level in common..<parentPath.count {
            openBranch(path: Array(parentPath.prefix(level + 1)), date: date, direction: direction, kind: .section, resume: resume)
        }
    }

    private mutating func openBranch(path: [String], date: Date, direction: PathMarker.Direction, kind: BranchKind, resume: Bool) {
        let parent = open[open.count - 1]
        let identifier = path[path.count - 1]
        let index: Int
        if direction == .backward, resume, let earlier = latest[path] {
            // Going back into a section resumes its result (RSDTaskViewModel keeps the child path).
            trim(parent, from: identifier)
            mark(parent, identifier, direction)
            branches[earlier].endDate = nil
            index = earlier
        } else {
            if direction == .backward {
                // A jump back: the path is trimmed to the section, whose visit starts anew.
                trim(parent, from: identifier)
                mark(parent, identifier, direction)
            }
            var branch = Branch(kind: kind, path: path, startDate: date)
            if let earlier = latest[path] {
                branch.previousResults = branches[earlier].entries.map(materialize)
                // A visit left backward never reaches the history: what its recorders returned
                // goes on with the new visit.
                if !branches[earlier].attached { branch.asyncResults = branches[earlier].asyncResults }
            }
            branches.append(branch)
            index = branches.count - 1
            latest[path] = index
        }
        // The parent's history gets the section when it is left forward (`closeInnermost`).
        open.append(index)
    }

    /// Ends the innermost open section at `date`; `attach` appends it to its parent's history.
    private mutating func closeInnermost(at date: Date, attach: Bool) {
        let index = open.removeLast()
        branches[index].endDate = date
        if attach { self.attach(index, to: open[open.count - 1]) }
    }

    /// Appends the branch `index` to the history of `parent`, unless it is already the last
    /// entry there, with a forward path marker.
    private mutating func attach(_ index: Int, to parent: Int) {
        append(.branch(index), to: parent)
        mark(parent, branches[index].identifier, .forward)
        branches[index].attached = true
    }

    /// Appends an entry, replacing the last one when it has the same identifier.
    private mutating func append(_ entry: Entry, to branch: Int) {
        if let last = branches[branch].entries.last, identifierOf(last) == identifierOf(entry) {
            branches[branch].entries[branches[branch].entries.count - 1] = entry
        } else {
            branches[branch].entries.append(entry)
        }
    }

    private mutating func mark(_ branch: Int, _ identifier: String, _ direction: PathMarker.Direction) {
        if branches[branch].markers.last?.identifier != identifier {
            branches[branch].markers.append(PathMarker(identifier: identifier, direction: direction))
        }
    }

    /// Going back to `identifier`: the path loses its marker and everything after it; the
    /// results from its last entry on are kept aside as previous results.
    private mutating func trim(_ branch: Int, from identifier: String) {
        if let marker = branches[branch].markers.lastIndex(where: { $0.identifier == identifier }) {
            branches[branch].markers.removeSubrange(marker...)
        }
        guard let first = branches[branch].entries.lastIndex(where: { identifierOf($0) == identifier }) else { return }
        for entry in branches[branch].entries[first...] {
            let result = materialize(entry)
            branches[branch].previousResults.removeAll { $0.result.identifier == result.result.identifier }
            branches[branch].previousResults.append(result)
        }
    }

    private func branchIndex(for path: [String]) -> Int? {
        if path == [taskIdentifier] { return 0 }
        if let index = open.last(where: { branches[$0].path == path }) { return index }
        return latest[path]
    }

    private func identifierOf(_ entry: Entry) -> String {
        switch entry {
        case .step(let result): result.result.identifier
        case .branch(let index): branches[index].identifier
        }
    }

    private func isStep(_ entry: Entry) -> Bool {
        if case .step = entry { return true }
        return false
    }

    private func materialize(_ entry: Entry) -> AnyResult {
        switch entry {
        case .step(let result):
            return result
        case .branch(let index):
            let branch = branches[index]
            let history = branch.entries.map(materialize)
            switch branch.kind {
            case .section:
                return AnyResult(SectionResult(identifier: branch.identifier, startDate: branch.startDate, endDate: branch.endDate,
                                               stepHistory: history, asyncResults: branch.asyncResults, path: branch.markers))
            case .task:
                return AnyResult(TaskResult(identifier: branch.identifier, taskRunUUID: taskRunUUID, startDate: branch.startDate,
                                            endDate: branch.endDate, stepHistory: history, asyncResults: branch.asyncResults,
                                            path: branch.markers))
            }
        }
    }
}
