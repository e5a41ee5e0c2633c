public import Foundation

/// Reads task files: decodes them as SageResearch does (JSON5 leniency included), resolves
/// `transform` steps relative to the including file, and checks what SageResearch would only
/// find at run time (duplicate identifiers, navigation and async-action step references).
///
/// Every failure is a `TaskLoadError` naming the file and coding path; files above
/// `maximumFileSize` are refused before they are read, so memory stays bounded.
public struct TaskLoader: Sendable {
    public var registry: TypeRegistry
    /// Files larger than this many bytes are refused.
    public var maximumFileSize: Int
    /// How deep transforms may include other transforms.
    public var maximumTransformDepth: Int
    /// Where `taskInfo` steps find their tasks (`<identifier>.json`, or their `taskTransformer`'s
    /// `resourceName`), before the including file's directory; nil looks only beside the file.
    public var taskDirectory: URL?
    /// When set, the folders every file a task includes (transforms, taskInfo tasks) must lie
    /// in, symlinks followed: a client that may read only the task directory cannot reach
    /// further through a `resourceName` with `..` or a symlink. nil: no limit (a file named by
    /// the daemon's administrator).
    public var includeRoots: [URL]?

    /// 8 MiB: SageResearch task files are kilobytes; anything near this is not a task.
    public static let defaultMaximumFileSize = 8 << 20

    public init(registry: TypeRegistry = .standard, maximumFileSize: Int = defaultMaximumFileSize,
                maximumTransformDepth: Int = 32, taskDirectory: URL? = nil) {
        self.registry = registry
        self.maximumFileSize = maximumFileSize
        self.maximumTransformDepth = maximumTransformDepth
        self.taskDirectory = taskDirectory
    }

    /// Loads the task, step or task-group file at `path`.
    public func load(path: String) throws(TaskLoadError) -> LoadedDocument {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let data = try read(url, displayName: path, codingPath: "(root)", reasonSuffix: "")
        return try load(data: data, displayName: path, baseDirectory: url.deletingLastPathComponent(), origin: url.path)
    }

    /// Loads a task file and requires it to be a task.
    public func loadTask(path: String) throws(TaskLoadError) -> (task: TaskDefinition, warnings: [TaskWarning]) {
        let loaded = try load(path: path)
        guard case .task(let task) = loaded.document else {
            throw TaskLoadError(
                file: path, codingPath: "(root)",
                reason: "This file holds a \(loaded.document.kindDescription), not a task; give the task file that includes it.")
        }
        return (task, loaded.warnings)
    }

    /// Loads a document from bytes (inline JSON); transforms resolve against `baseDirectory`.
    public func load(data: Data, displayName: String, baseDirectory: URL, origin: String? = nil) throws(TaskLoadError) -> LoadedDocument {
        if data.count > maximumFileSize {
            throw TaskLoadError(file: displayName, codingPath: "(root)", reason: sizeReason(data.count))
        }
        let context = Context(displayName: displayName, stack: origin.map { [$0] } ?? [])
        let members = try parseObject(data, context: context, codingPath: "(root)", reasonSuffix: "")
        var warnings: [TaskWarning] = []
        let document: TaskDocument
        switch TaskDocument.kind(of: members, registry: registry) {
        case .taskGroup:
            document = .taskGroup(try decode(TaskGroup.self, data, context: context, prefix: "(root)", reasonSuffix: ""))
        case .task:
            var task = try decode(TaskDefinition.self, data, context: context, prefix: "(root)", reasonSuffix: "")
            try resolveTransforms(in: &task.container, prefix: "", baseDirectory: baseDirectory, context: context)
            warnings += task.warnings
            warnings += try TaskValidator(file: displayName).validate(task: task)
            task.warnings = warnings
            document = .task(task)
        case .asyncAction:
            document = .asyncAction(try decode(AsyncActionDocument.self, data, context: context, prefix: "(root)", reasonSuffix: "").configuration)
        case .step:
            var step = try decode(Step.self, data, context: context, prefix: "(root)", reasonSuffix: "")
            try resolveTransforms(in: &step, prefix: "", baseDirectory: baseDirectory, context: context, depth: 0)
            warnings += try TaskValidator(file: displayName).validate(standaloneStep: step)
            document = .step(step)
        }
        return LoadedDocument(document: document, warnings: warnings)
    }

    // MARK: - Reading and decoding

    private struct Context {
        var displayName: String
        /// The absolute paths of the files being loaded, outermost first (cycle detection).
        var stack: [String]
    }

    private func sizeReason(_ size: Int) -> String {
        "The file is \(size) bytes, more than the \(maximumFileSize)-byte limit for a task file; "
            + "task files are small JSON documents: split it into section files loaded with \"transform\" steps."
    }

    private func read(_ url: URL, displayName: String, codingPath: String, reasonSuffix: String) throws(TaskLoadError) -> Data {
        func failure(_ reason: String) -> TaskLoadError {
            TaskLoadError(file: displayName, codingPath: codingPath, reason: reason + reasonSuffix)
        }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw failure("The file \(url.path) does not exist or cannot be read; check the path.")
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw failure("\(url.path) is not a regular file; give the path of a JSON task file.")
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > maximumFileSize {
            throw failure(sizeReason(size))
        }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // Read at most one byte past the limit, in case the file grew after the size check.
            let data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
            if data.count > maximumFileSize { throw failure(sizeReason(data.count)) }
            return data
        } catch let error as TaskLoadError {
            throw error
        } catch {
            throw failure("The file \(url.path) cannot be read (\(error.localizedDescription)); check its permissions.")
        }
    }

    private func parseObject(_ data: Data, context: Context, codingPath: String, reasonSuffix: String) throws(TaskLoadError) -> [String: JSONValue] {
        // JSON5 decoding is lenient only for valid UTF-8: Foundation's JSON5 scanner traps on
        // some invalid bytes, so they are refused here, before any decoder sees them.
        if let fault = UTF8Validation.firstFault(in: [UInt8](data)) {
            throw TaskLoadError(file: context.displayName, codingPath: codingPath, reason: fault.reason + reasonSuffix)
        }
        let value = try decode(JSONValue.self, data, context: context, prefix: codingPath, reasonSuffix: reasonSuffix)
        guard let members = value.objectValue else {
            throw TaskLoadError(file: context.displayName, codingPath: codingPath,
                                reason: "The file holds a JSON \(value.kindName), not an object; a task file is one JSON object." + reasonSuffix)
        }
        return members
    }

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data, context: Context, prefix: String, reasonSuffix: String) throws(TaskLoadError) -> T {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        decoder.dateDecodingStrategy = Timestamp.decodingStrategy
        decoder.userInfo[TypeRegistry.userInfoKey] = registry
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            var (path, reason) = Self.describe(error)
            if case .dataCorrupted(let detail) = error, detail.codingPath.isEmpty,
               let fault = JSONSyntaxLocator.firstFault(in: Array(data)) {
                reason = "The file is not valid JSON: at line \(fault.line), column \(fault.column), \(fault.problem); fix the syntax."
            }
            throw TaskLoadError(file: context.displayName, codingPath: CodingPath.join(prefix, path), reason: reason + reasonSuffix)
        } catch {
            throw TaskLoadError(file: context.displayName, codingPath: prefix, reason: "\(error)" + reasonSuffix)
        }
    }

    /// The coding path and a sentence for a decoding error.
    static func describe(_ error: DecodingError) -> (path: String, reason: String) {
        switch error {
        case .keyNotFound(let key, let context):
            return (CodingPath.string(context.codingPath + [key]),
                    "The required key \"\(key.stringValue)\" is missing; add it.")
        case .typeMismatch(let type, let context):
            var found = ""
            if let range = context.debugDescription.range(of: "but found ") {
                let rest = context.debugDescription[range.upperBound...]
                    .replacingOccurrences(of: " instead", with: "").trimmingCharacters(in: CharacterSet(charactersIn: ". "))
                let noun = rest.hasPrefix("a ") || rest.hasPrefix("an ") ? rest : "a \(rest)".replacingOccurrences(of: "a array", with: "an array")
                found = " but found \(noun)"
            }
            return (CodingPath.string(context.codingPath), "Wrong type: expected \(friendlyName(type))\(found).")
        case .valueNotFound(let type, let context):
            return (CodingPath.string(context.codingPath),
                    "The value is null; expected \(friendlyName(type)).")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let detail = context.underlyingError.map { " (\(underlyingDescription($0)))" } ?? ""
                return ("(root)", "The file is not valid JSON\(detail); fix the syntax.")
            }
            return (CodingPath.string(context.codingPath), sentence(context.debugDescription))
        @unknown default:
            return ("(root)", "\(error)")
        }
    }

    private static func underlyingDescription(_ error: any Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }

    private static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? text : text + "."
    }

    private static func friendlyName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is StepType.Type, is TaskType.Type, is AsyncActionType.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Double.Type, is Int.Type, is Int64.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") || name.hasPrefix("[") { return "an array" }
            if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
            return name
        }
    }

    // MARK: - Transforms

    private func resolveTransforms(in container: inout StepContainer, prefix: String, baseDirectory: URL, context: Context) throws(TaskLoadError) {
        for index in container.steps.indices {
            try resolveTransforms(in: &container.steps[index], prefix: "\(prefix)steps[\(index)]",
                                  baseDirectory: baseDirectory, context: context, depth: context.stack.count)
        }
    }

    private func resolveTransforms(in step: inout Step, prefix: String, baseDirectory: URL, context: Context, depth: Int) throws(TaskLoadError) {
        if step.kind == .transform, let transformer = step.resourceTransformer {
            step = try loadTransform(step, transformer: transformer, prefix: prefix, baseDirectory: baseDirectory, context: context)
            return
        }
        if step.kind == .taskInfo, step.container == nil {
            step = try loadTaskInfo(step, prefix: prefix, baseDirectory: baseDirectory, context: context)
            return
        }
        guard var contents = step.container else { return }
        let nested = step.kind == .subtask || step.kind == .taskInfo
        let inner = nested ? "\(CodingPath.join(prefix, "task"))." : (prefix.isEmpty ? "" : "\(prefix).")
        try resolveTransforms(in: &contents, prefix: inner, baseDirectory: baseDirectory, context: context)
        step.container = contents
    }

    private func loadTransform(_ transform: Step, transformer: ResourceTransformer, prefix: String, baseDirectory: URL, context: Context) throws(TaskLoadError) -> Step {
        let resourcePath = CodingPath.join(prefix, "resourceTransformer.resourceName")
        let url = baseDirectory.appendingPathComponent(transformer.fileName).standardizedFileURL
        let suffix = " The fault is in \(transformer.fileName), loaded by the transform \"\(transform.identifier)\"."
        let includer = "The transform \"\(transform.identifier)\""
        guard mayInclude(url) else {
            throw TaskLoadError(
                file: context.displayName, codingPath: resourcePath,
                reason: "\(includer) names \(transformer.fileName), which lies outside the folders this client may load from; name a file beside the task.")
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw TaskLoadError(
                file: context.displayName, codingPath: resourcePath,
                reason: "\(includer) names \(transformer.fileName), which does not exist at \(url.path); put the file beside the including file or fix resourceName.")
        }
        let (data, inner) = try readIncluded(
            url, named: transformer.fileName, by: includer, expecting: .step,
            wrongKind: "which is not a step or section file; a transform loads one step",
            codingPath: resourcePath, parsePath: prefix, reasonSuffix: suffix, context: context)
        var loaded = try decode(Step.self, data, context: inner, prefix: prefix, reasonSuffix: suffix)
        try resolveTransforms(in: &loaded, prefix: prefix, baseDirectory: url.deletingLastPathComponent(), context: inner, depth: inner.stack.count)
        // SageResearch copies the loaded step with the transform step's identifier.
        loaded.identifier = transform.identifier
        loaded.properties["identifier"] = .string(transform.identifier)
        loaded.loadedFrom = url.path
        return loaded
    }

    /// Reads a file a step includes (a transform's step, a taskInfo step's task): refuses a
    /// cycle or too deep a nesting, reads it bounded, parses it and requires `kind`. Returns its
    /// bytes and the context to decode them in.
    private func readIncluded(
        _ url: URL, named name: String, by includer: String, expecting kind: TaskDocument.Kind, wrongKind: String,
        codingPath: String, parsePath: String, reasonSuffix suffix: String, context: Context
    ) throws(TaskLoadError) -> (data: Data, context: Context) {
        try checkInclusion(of: url, named: name, by: includer, codingPath: codingPath, context: context)
        let data = try read(url, displayName: context.displayName, codingPath: codingPath, reasonSuffix: suffix)
        var inner = context
        inner.stack.append(url.path)
        let members = try parseObject(data, context: inner, codingPath: parsePath, reasonSuffix: suffix)
        guard TaskDocument.kind(of: members, registry: registry) == kind else {
            throw TaskLoadError(file: context.displayName, codingPath: codingPath, reason: "\(includer) loads \(name), \(wrongKind).")
        }
        return (data, inner)
    }

    /// Whether `url`, symlinks followed, lies in one of `includeRoots` (always, without them).
    private func mayInclude(_ url: URL) -> Bool {
        guard let includeRoots else { return true }
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
        return includeRoots.contains { resolved.hasPrefix($0.resolvingSymlinksInPath().standardizedFileURL.path + "/") }
    }

    /// Refuses a file already being loaded (a cycle) or one nested too deep.
    private func checkInclusion(of url: URL, named name: String, by includer: String, codingPath: String, context: Context) throws(TaskLoadError) {
        if context.stack.contains(url.path) {
            let names = (context.stack + [url.path]).map { URL(fileURLWithPath: $0).lastPathComponent }
            throw TaskLoadError(
                file: context.displayName, codingPath: codingPath,
                reason: "\(includer) loads \(name), which is already being loaded (\(names.joined(separator: " → "))); transforms must not include each other in a cycle.")
        }
        if context.stack.count > maximumTransformDepth {
            throw TaskLoadError(
                file: context.displayName, codingPath: codingPath,
                reason: "Transforms are nested more than \(maximumTransformDepth) files deep; flatten the task.")
        }
    }

    // MARK: - Nested tasks

    /// A `taskInfo` step without an inline `task`: its task file (`taskTransformer.resourceName`,
    /// else `<identifier>.json`) from the task directory, else beside the including file, runs
    /// nested. Without a `taskTransformer` and no such file the step stays a page for the front
    /// end (the validator warns); a named file that does not exist is an error.
    private func loadTaskInfo(_ step: Step, prefix: String, baseDirectory: URL, context: Context) throws(TaskLoadError) -> Step {
        let transformer = step.properties["taskTransformer"]?.objectValue?["resourceName"]?.stringValue.map {
            ResourceTransformer(resourceName: $0, rawFileExtension: step.properties["taskTransformer"]?.objectValue?["rawFileExtension"]?.stringValue)
        }
        let fileName = transformer?.fileName ?? "\(step.identifier).json"
        let places = [taskDirectory, baseDirectory].compactMap { $0?.appendingPathComponent(fileName).standardizedFileURL }
        let candidates = places.filter(mayInclude)
        guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            guard transformer != nil else { return step }
            throw TaskLoadError(
                file: context.displayName, codingPath: CodingPath.join(prefix, "taskTransformer.resourceName"),
                reason: "The taskInfo step \"\(step.identifier)\" names \(fileName), which is in neither \(places.map { $0.deletingLastPathComponent().path }.joined(separator: " nor ")); put the task file in the task directory or fix resourceName.")
        }
        let codingPath = CodingPath.join(prefix, "task")
        let suffix = " The fault is in \(fileName), the task of the taskInfo step \"\(step.identifier)\"."
        let (data, inner) = try readIncluded(
            url, named: fileName, by: "The taskInfo step \"\(step.identifier)\"", expecting: .task,
            wrongKind: "which is not a task file; give it the file of a task",
            codingPath: codingPath, parsePath: codingPath, reasonSuffix: suffix, context: context)
        var task = try decode(TaskDefinition.self, data, context: inner, prefix: codingPath, reasonSuffix: suffix)
        try resolveTransforms(in: &task.container, prefix: "\(codingPath).", baseDirectory: url.deletingLastPathComponent(), context: inner)
        var nested = step
        nested.container = task.container
        // Kept inline, so that the run's copy of the task (task.json) holds the nested task too.
        var taskMembers = task.properties
        taskMembers["identifier"] = .string(task.identifier)
        nested.properties["task"] = .object(taskMembers)
        nested.loadedFrom = url.path
        return nested
    }
}
