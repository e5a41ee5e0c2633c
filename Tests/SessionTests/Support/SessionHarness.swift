import AsyncActions
import Daemon
import Audio
import Foundation
import Logging
import Motion
import Recorders
import SampleFiles
import Session
import TaskModel
import TestSupport
import Voice

/// A session on a real run store with the built-in recorders (`sim:` IMU, ALSA file PCMs), and
/// an automatic front end like `activetaskctl run --auto`: instruction steps go forward at once,
/// timed steps start their timer when it does not start by itself and go forward when it ends,
/// permission requests get `grant`.
struct SessionHarness {
    let dataDirectory: URL
    let session: TaskSession
    let store: RunStore
    let settings: SessionSettings

    /// The recorders' stop deadline in these tests: a guard against a hang, not a figure. The
    /// product's 5 s is what a device gets; here a machine that stalls for seconds (docs/testing.md,
    /// "Load") must not turn a stop that was only late into a failed recorder.
    static let stopGuard: Duration = .seconds(30)

    static func make(
        taskPath: String, name: String, policy: PermissionPolicy = PermissionPolicy(),
        iioURI: String = "sim:walking", captureDevice: String = SessionTestEnvironment.captureDevice, permissionTimeout: Double = 120, speaks: Bool = false,
        typeAliases: [String: String] = [:], taskDirectory: URL? = nil, stopDeadline: Duration = stopGuard,
        configure: (inout SessionSettings) -> Void = { _ in }
    ) async throws -> SessionHarness {
        let scratch = SessionTestEnvironment.scratch(name)
        try SessionTestEnvironment.startAudio()
        var registry = TypeRegistry()
        try registry.apply(TypeAliasTable(typeAliases: typeAliases))
        let (task, _) = try TaskLoader(registry: registry, taskDirectory: taskDirectory).loadTask(path: taskPath)
        let logger = Logger(label: "session-tests")
        let store = RunStore(dataDirectory: scratch.appendingPathComponent("data"), logger: logger)
        let sync = SyncPolicy(syncingEvery: .milliseconds(200))
        let controllers = AsyncActionControllerRegistry.builtIn(
            motion: MotionDeviceSettings(iioURI: iioURI, syncPolicy: sync, stopDeadline: stopDeadline),
            microphone: MicrophoneSettings(device: captureDevice, syncPolicy: sync, stopDeadline: stopDeadline))
        var settings = SessionSettings(
            makeController: { controllers.makeController(for: $0, output: $1) },
            permissionPolicy: policy, permissionTimeout: permissionTimeout,
            voice: speaks ? PrompterVoice(try await VoicePrompter(configuration: VoiceConfiguration(playbackDevice: SessionTestEnvironment.playbackDevice), logger: logger)) : nil,
            quality: QualityChecks(), logger: logger)
        configure(&settings)
        let session = try await TaskSession.create(task: task, store: store, settings: settings)
        return SessionHarness(dataDirectory: scratch, session: session, store: store, settings: settings)
    }

    /// What the automatic front end saw.
    struct Transcript {
        var steps: [String] = []
        var events: [SessionEvent] = []
        var finished: (reason: FinishReason, runDirectory: URL, archive: URL?)?
    }

    /// Runs the task to its end with the automatic front end; `onStep` may act instead of it
    /// (return true when it did).
    func runAutomatically(
        grant: Bool = true,
        onStep: @escaping @Sendable (TaskSession, StepShown) async throws -> Bool = { _, _ in false }
    ) async throws -> Transcript {
        let session = session
        let events = session.events.subscribe()
        return try await withThrowingTaskGroup(of: Transcript?.self) { group in
            group.addTask {
                await session.run()
                return nil
            }
            group.addTask {
                var transcript = Transcript()
                var current: StepShown?
                try await session.start()
                for await event in events {
                    transcript.events.append(event)
                    switch event.kind {
                    case .stepShown(let shown):
                        transcript.steps.append(shown.stepPath)
                        current = shown
                        if try await onStep(session, shown) { continue }
                        if shown.duration == nil {
                            try await session.forward()
                        } else if !Self.startsByItself(shown) {
                            try await session.startTimer()
                        }
                    case .timer(.finished(let path)):
                        // A timed step that does not move on by itself is moved on by the front end.
                        if let shown = current, shown.stepPath == path, !Self.movesOnByItself(shown) {
                            try await session.forward()
                        }
                    case .permissionRequest(let request):
                        try await session.answerPermission(request.id, granted: grant)
                    case .taskFinished(let reason, let directory, let archive):
                        transcript.finished = (reason, directory, archive)
                        events.cancel()
                    default:
                        break
                    }
                }
                return transcript
            }
            var result = Transcript()
            for try await transcript in group {
                if let transcript { result = transcript }
            }
            return result
        }
    }

    /// A front end whose person moves on from the timed steps `paths` after `seconds`, before
    /// their timers end (SageResearch allows it), starting a timer first when it does not start
    /// by itself. Other steps are left to the automatic front end.
    static func movingOnEarly(from paths: Set<String>, after seconds: Double) -> @Sendable (TaskSession, StepShown) async throws -> Bool {
        { session, shown in
            guard paths.contains(shown.stepPath) else { return false }
            if !startsByItself(shown) { try await session.startTimer() }
            try await Task.sleep(for: .seconds(seconds))
            try await session.forward()
            return true
        }
    }

    static func movesOnByItself(_ shown: StepShown) -> Bool {
        let commands = (shown.step["commands"]?.arrayValue ?? []).compactMap(\.stringValue)
        return shown.type == "countdown" || commands.contains("transitionAutomatically") || commands.contains("continueOnFinish")
    }

    static func startsByItself(_ shown: StepShown) -> Bool {
        let commands = (shown.step["commands"]?.arrayValue ?? []).compactMap(\.stringValue)
        return shown.type == "countdown" || commands.contains("startTimerAutomatically")
            || commands.contains("transitionAutomatically") || commands.contains("continueOnFinish")
    }
}
