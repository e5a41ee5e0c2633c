import AsyncActions
import Audio
import Foundation
import Logging
import Motion
import Recorders
import Session
import TaskModel
import TaskNavigation
import Testing
import ThresholdTask

/// A task session driven by a custom task type's own navigator: forward, back and progress.
@Suite("Custom task sessions")
struct CustomTaskSessionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var value: Int
        /// Each move (`f` forward, `b` back) and the step path and progress shown after it.
        var moves: [(move: Character, path: String, progress: String?)]
        var testDescription: String { "value \(value)" }
    }

    static let cases: [Case] = [
        Case(value: 1, moves: [
            ("s", "T/a", "1/4~"), ("f", "T/b", "2/4~"), ("b", "T/a", "1/4~"), ("f", "T/b", "2/4~"),
            ("f", "T/c", "3/4~"), ("f", "T/end", "4/4~"),
        ]),
        Case(value: 5, moves: [
            ("s", "T/a", "1/4~"), ("f", "T/c", "2/4~"), ("b", "T/a", "1/4~"), ("f", "T/c", "2/4~"),
            ("f", "T/end", "3/4~"),
        ]),
    ]

    @Test(arguments: cases)
    func runsWithTheCustomNavigator(_ test: Case) async throws {
        var registry = TypeRegistry()
        registry.registerTaskType("thresholdTask", ThresholdTask.self)
        let json = #"""
        {"identifier": "T", "type": "thresholdTask", "value": \#(test.value), "progressMarkers": ["a", "b", "c"], "steps": [
            {"identifier": "a", "type": "instruction"},
            {"identifier": "b", "type": "instruction"},
            {"identifier": "c", "type": "instruction"},
            {"identifier": "end", "type": "completion"}
        ]}
        """#
        let loaded = try TaskLoader(registry: registry).load(data: Data(json.utf8), displayName: "inline", baseDirectory: URL(fileURLWithPath: "/"))
        guard case .task(let task) = loaded.document else { Issue.record("not a task"); return }

        let scratch = SessionTestEnvironment.scratch("custom-task-\(test.value)")
        let logger = Logger(label: "custom-task-session-tests")
        let store = RunStore(dataDirectory: scratch.appendingPathComponent("data"), logger: logger)
        // The task declares no async action; the built-in controllers are there as in the daemon.
        let controllers = AsyncActionControllerRegistry.builtIn(
            motion: MotionDeviceSettings(iioURI: "sim:walking"), microphone: MicrophoneSettings(device: SessionTestEnvironment.captureDevice))
        let settings = SessionSettings(makeController: { controllers.makeController(for: $0, output: $1) }, logger: logger)
        let session = try await TaskSession.create(task: task, store: store, settings: settings)
        let driver = SessionDriver(session)
        func shown() async -> (String, String?)? {
            await driver.next { kind -> (String, String?)? in
                guard case .stepShown(let shown) = kind else { return nil }
                return (shown.stepPath, shown.progress.map { "\($0.current)/\($0.total)\($0.isEstimated ? "~" : "")" })
            }
        }
        for (move, path, progress) in test.moves {
            switch move {
            case "s": try await session.start()
            case "f": try await session.forward()
            default: try await session.back()
            }
            let step = await shown()
            #expect(step?.0 == path, "after \(move)")
            #expect(step?.1 == progress, "after \(move) to \(path)")
        }
        try await session.forward()
        let finished = await driver.finished()
        #expect(finished?.0 == .completed)
        // SageResearch's step history keeps every step shown, those gone back over included.
        let history = await session.taskResult.stepHistory.map(\.result.identifier)
        #expect(history == test.moves.map { String($0.path.dropFirst(2)) })
        await driver.stop()
    }
}
