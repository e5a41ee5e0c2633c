import ControlClient
import TaskModel
import ControlProtocol
import Foundation

/// `activetaskctl run FILE` without --auto: a terminal front end. It shows the step's title and
/// text, a live timer with a progress bar, the prompts as they are spoken, the audio level and
/// motion rate while recording, asks permission questions, and takes keys.
struct InteractiveFrontEnd {
    let client: ControlClient

    private enum Input: Sendable {
        case event(ControlEvent)
        case key(UInt8)
    }

    /// What is on screen.
    private struct Screen {
        var step: StepShownEvent?
        var timer: StepTimerEvent?
        var timerDuration: Double?
        var paused = false
        var prompt: String?
        var audio: AudioLevelEvent?
        var motion: MotionProgressEvent?
        var permission: PermissionRequestEvent?
        /// Questions asked while `permission` was on screen, oldest first.
        var laterPermissions: [PermissionRequestEvent] = []
        var message: String?
        /// The answer being typed on a question step (`a` starts it).
        var answering: AnswerEntry?
    }

    /// Answers typed field by field (QuestionStep.typedFields); sent with "forward" after the last.
    private struct AnswerEntry {
        var question: QuestionStep
        var typed: [String] = []
        var line = ""
        var field: QuestionStep.TypedField { question.typedFields[typed.count] }
    }

    func run(attachTo status: SessionStatus?) async -> TaskFinishedEvent? {
        let terminal = TerminalKeys()
        defer { terminal.restore() }
        var screen = Screen()
        if let status {
            screen.step = status.step
            screen.permission = status.permissionRequest
            if let timer = status.timer {
                screen.timerDuration = timer.duration
                screen.timer = StepTimerEvent(stepPath: timer.stepPath, duration: timer.duration, elapsed: timer.elapsed)
                screen.paused = !timer.running
            }
        }
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in client.events { continuation.yield(.event(event)) }
                continuation.finish()
            }
            group.addTask {
                for await key in terminal.keys { continuation.yield(.key(key)) }
            }
            defer { group.cancelAll() }
            draw(screen)
            for await input in inputs {
                switch input {
                case .event(let event):
                    if case .taskFinished(let finished) = event.payload {
                        print("\u{1B}[2J\u{1B}[H", terminator: "")
                        return finished
                    }
                    apply(event, to: &screen)
                case .key(let key):
                    if let finished = await press(key, &screen) { return finished }
                }
                draw(screen)
            }
            return nil
        }
    }

    private func apply(_ event: ControlEvent, to screen: inout Screen) {
        switch event.payload {
        case .stepShown(let shown):
            screen = Screen(step: shown, timerDuration: shown.duration, permission: screen.permission,
                            laterPermissions: screen.laterPermissions)
        case .timerStarted(let timer):
            screen.timer = timer
            screen.timerDuration = timer.duration ?? screen.timerDuration
            screen.paused = false
        case .timerTick(let timer), .timerFinished(let timer):
            screen.timer = timer
        case .timerPaused:
            screen.paused = true
        case .timerResumed:
            screen.paused = false
        case .promptSpoken(let prompt):
            screen.prompt = prompt.text
        case .audioLevel(let level):
            screen.audio = level
        case .motionProgress(let motion):
            screen.motion = motion
        case .permissionRequest(let request):
            // Several questions can be open at once (one per permission a step's actions need):
            // show the oldest, keep the others for after it is answered.
            if screen.permission == nil { screen.permission = request } else { screen.laterPermissions.append(request) }
        case .permissionAnswered(let answer):
            screen.laterPermissions.removeAll { $0.requestID == answer.requestID }
            if screen.permission?.requestID == answer.requestID {
                screen.permission = screen.laterPermissions.isEmpty ? nil : screen.laterPermissions.removeFirst()
            }
        case .actionFailed(let failure):
            screen.message = "\(failure.identifier) failed: \(failure.message)"
        case .warning(let warning):
            screen.message = warning.message
        case .stepCommand(let command):
            screen.message = command.command
        default:
            break
        }
    }

    /// Takes a key while an answer is typed: text, backspace, Esc to stop, Enter for the next
    /// field; the answers go with "forward" after the last field.
    private func type(_ key: UInt8, _ screen: inout Screen) -> (@Sendable () async throws -> SessionStatus)? {
        guard var entry = screen.answering, let step = screen.step else { return nil }
        switch key {
        case 27:
            screen.answering = nil
        case 127, 8:
            if !entry.line.isEmpty { entry.line.removeLast() }
            screen.answering = entry
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            entry.typed.append(entry.line)
            entry.line = ""
            guard entry.typed.count == entry.question.typedFields.count else {
                screen.answering = entry
                return nil
            }
            screen.answering = nil
            let answers = entry.question.answers(typed: entry.typed).map { StepAnswer(identifier: $0.identifier, value: $0.value) }
            let forward = ForwardParams(answers: answers, stepPath: step.stepPath)
            let client = self.client
            return { try await client.call(ControlMethods.runForward, forward) }
        case 32...126:
            entry.line.append(Character(Unicode.Scalar(key)))
            screen.answering = entry
        default:
            break
        }
        return nil
    }

    /// Carries out a key; returns the finish when `q` ended the run.
    private func press(_ key: UInt8, _ screen: inout Screen) async -> TaskFinishedEvent? {
        let command = screen.answering != nil ? type(key, &screen) : command(for: key, &screen)
        guard let command else { return nil }
        do {
            let status = try await command()
            screen.message = nil
            if key == UInt8(ascii: "q"), let uuid = status.taskRunUUID {
                return TaskFinishedEvent(taskRunUUID: uuid, reason: .saved, runDirectory: status.runDirectory ?? "", archive: status.archive)
            }
        } catch ControlClientError.remote(let error) {
            screen.message = error.message
        } catch {
            screen.message = "\(error)"
        }
        return nil
    }

    /// What a key means outside an answer being typed: the control call it makes, or nil (a key
    /// that means nothing here, or `a`, which starts typing an answer).
    private func command(for key: UInt8, _ screen: inout Screen) -> (@Sendable () async throws -> SessionStatus)? {
        let client = self.client
        switch key {
        case UInt8(ascii: "y"), UInt8(ascii: "n"):
            guard let request = screen.permission else { return nil }
            let answer = PermissionAnswerParams(requestID: request.requestID, granted: key == UInt8(ascii: "y"))
            return { try await client.call(ControlMethods.permissionAnswer, answer) }
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            let forward = ForwardParams(stepPath: screen.step?.stepPath)
            return { try await client.call(ControlMethods.runForward, forward) }
        case UInt8(ascii: "1"), UInt8(ascii: "2"), UInt8(ascii: "3"):
            // MotorControl's hand selection: 1 left, 2 right, 3 both (docs/task-format.md, "Hands").
            guard let step = screen.step, step.type == "handSelection" else { return nil }
            let hand = ["left", "right", "both"][Int(key - UInt8(ascii: "1"))]
            let forward = ForwardParams(answers: [StepAnswer(identifier: "handSelection", value: .string(hand))], stepPath: step.stepPath)
            return { try await client.call(ControlMethods.runForward, forward) }
        case UInt8(ascii: "a"):
            // A question's answer is typed, field by field (docs/protocol.md, "Questions").
            guard let question = screen.step?.question, !question.typedFields.isEmpty else { return nil }
            screen.answering = AnswerEntry(question: question)
            return nil
        case UInt8(ascii: "b"): return { try await client.call(ControlMethods.runBack) }
        case UInt8(ascii: "s"): return { try await client.call(ControlMethods.runSkip) }
        case UInt8(ascii: "p"):
            let method = screen.paused ? ControlMethods.timerResume : ControlMethods.timerPause
            return { try await client.call(method) }
        case UInt8(ascii: "q"): return { try await client.call(ControlMethods.runCancel, CancelParams(save: true)) }
        default: return nil
        }
    }

    /// The fields of a question, their choices numbered, and the line being typed.
    private static func questionLines(_ question: QuestionStep, entry: AnswerEntry?) -> [String] {
        var lines: [String] = []
        for (index, field) in question.typedFields.enumerated() {
            let typed = entry.flatMap { index < $0.typed.count ? $0.typed[index] : (index == $0.typed.count ? $0.line + "_" : nil) }
            lines.append("\(field.label): \(typed ?? "")")
            for (number, choice) in field.choices.enumerated() {
                lines.append("  \(number + 1) \(choice.text ?? choice.value.map(Self.shown) ?? "none")")
            }
            if field.multipleChoices { lines.append("  (several: 1,3)") }
        }
        lines.append(entry == nil ? "a to answer" : "enter next field · esc stop answering")
        return lines
    }

    /// A choice's value as a person reads it, for a choice without text.
    private static func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .bool(let flag): flag ? "yes" : "no"
        default: "(value)"
        }
    }

    private func draw(_ screen: Screen) {
        var lines: [String] = []
        if let step = screen.step {
            let progress = step.progress.map { " (\($0.current) of \($0.total))" } ?? ""
            lines.append("\u{1B}[1m\(step.step["title"]?.stringValue ?? step.stepPath)\u{1B}[0m\(progress)")
            if let text = step.step["text"]?.stringValue ?? step.step["subtitle"]?.stringValue ?? step.step["detail"]?.stringValue { lines.append(text) }
            if step.type == "handSelection" { lines.append("Which hand? 1 left, 2 right, 3 both") }
            if step.type != "handSelection", let question = step.question {
                lines.append(contentsOf: Self.questionLines(question, entry: screen.answering))
            }
            lines.append("")
            if let duration = screen.timerDuration, duration > 0 {
                let elapsed = screen.timer?.elapsed ?? 0
                let filled = Int((elapsed / duration * 30).rounded(.down).clamped(to: 0...30))
                let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled)
                lines.append("timer [\(bar)] \(Int(elapsed)) / \(Int(duration)) s\(screen.paused ? "  paused" : "")")
            }
        } else {
            lines.append("waiting for the daemon…")
        }
        if let prompt = screen.prompt { lines.append("spoken: \(prompt)") }
        if let audio = screen.audio {
            lines.append(String(format: "audio: %.1f dBFS average, %.1f dBFS peak", audio.averageDBFS, audio.peakDBFS))
        }
        if let motion = screen.motion {
            lines.append(String(format: "motion: %d samples, %.1f Hz", motion.samplesWritten, motion.achievedRate))
        }
        if let request = screen.permission {
            lines.append("")
            lines.append("\u{1B}[1mMay the task use the \(request.permission)?\u{1B}[0m \(request.title ?? "") \(request.reason ?? "")  [y/n]")
        }
        if let message = screen.message { lines.append(""); lines.append("! \(message)") }
        lines.append("")
        lines.append("enter next · b back · s skip · p pause/resume · q cancel and save")
        print("\u{1B}[2J\u{1B}[H" + lines.joined(separator: "\n"))
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
