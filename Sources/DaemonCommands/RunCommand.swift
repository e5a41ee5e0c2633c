import ArgumentParser
import CommandOutput
import ControlClient
import ControlProtocol
import Foundation

/// `activetaskctl run FILE [--auto [--json]]`: runs a task through the daemon, as the
/// automatic front end or as an interactive terminal front end.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a task through activetaskd (interactive, or --auto).",
        discussion: """
            Interactive keys: enter next, b back, s skip, p pause/resume the timer, q cancel and save, \
            y/n answer a permission question. With --attach, continues the run the daemon is running.
            """)

    @OptionGroup var connection: SocketOptions

    @Argument(help: "The task JSON file (read here and sent inline with its transform resources).")
    var file: String?

    @Flag(help: "Go forward by itself: instruction steps at once, timed steps when their timer ends; grant permissions.")
    var auto = false

    @Flag(help: "With --auto, end with one JSON line {taskRunUUID, runDirectory, archive, status}.")
    var json = false

    @Flag(help: "Front the run the daemon is already running instead of starting one.")
    var attach = false

    @Option(help: "The participant's cohorts, comma-separated (beforeCohortRules, afterCohortRules, survey rules).")
    var cohorts: String?

    @Flag(help: "Abbreviated instructions: leave out the fullInstructionsOnly steps.")
    var abbreviated = false

    func validate() throws {
        if file == nil && !attach { throw ValidationError("Name a task file, or pass --attach to front the running run.") }
        if json && !auto { throw ValidationError("--json goes with --auto.") }
        if attach && (cohorts != nil || abbreviated) { throw ValidationError("--cohorts and --abbreviated start a run; the run you attach to keeps its own.") }
    }

    func run() async throws {
        let upload = try file.map(TaskUpload.params(for:))
        let auto = self.auto, json = self.json, startParams = self.startParams
        let finished = try await connection.withClient { client -> TaskFinishedEvent? in
            try await client.subscribe()
            var status: SessionStatus?
            if let upload {
                let loaded = try await client.call(ControlMethods.taskLoad, upload)
                Self.say("loaded \(loaded.taskIdentifier) (\(loaded.stepCount) steps)", json: json)
                _ = try await client.call(ControlMethods.runStart, startParams)
            } else {
                status = try await client.status()
            }
            if auto {
                return try await AutoRun.drive(client, attachTo: status) { Self.say($0, json: json) }
            }
            return await InteractiveFrontEnd(client: client).run(attachTo: status)
        }
        guard let finished else { return }
        if json {
            try JSONOutput.print(Summary(finished), prettyPrinted: false)
        } else {
            print("run: \(finished.taskRunUUID) \(finished.reason.rawValue)")
            print("run directory: \(finished.runDirectory)")
            if let archive = finished.archive { print("archive: \(archive)") }
        }
        if auto, ![RunState.completed, .earlyExit].contains(finished.reason) { throw ExitCode.failure }
    }

    /// `run.start`'s params from `--cohorts` and `--abbreviated`.
    var startParams: RunStartParams {
        let names = cohorts?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return RunStartParams(cohorts: names, fullInstructions: abbreviated ? false : nil)
    }

    private static func say(_ line: String, json: Bool) {
        if json { Console.standardError(line) } else { print(line) }
    }

    /// The last line of `run --auto --json` (docs/protocol.md; README, "Running the daemon by hand").
    struct Summary: Encodable {
        var taskRunUUID: String
        var runDirectory: String
        var archive: String?
        var status: String

        init(_ finished: TaskFinishedEvent) {
            taskRunUUID = finished.taskRunUUID
            runDirectory = finished.runDirectory
            archive = finished.archive
            status = finished.reason.rawValue
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(taskRunUUID, forKey: .taskRunUUID)
            try container.encode(runDirectory, forKey: .runDirectory)
            // Always present, null when the run has no archive (discarded, saved).
            try container.encode(archive, forKey: .archive)
            try container.encode(status, forKey: .status)
        }

        private enum CodingKeys: String, CodingKey { case taskRunUUID, runDirectory, archive, status }
    }
}
