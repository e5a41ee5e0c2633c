import Foundation
import Glibc

/// A front end for the hand tasks over one connection: answers the hand selection and the
/// permission requests, sends a tapping result from the tapping step, and leaves each step
/// once what it says has been heard.
struct HandDriver {
    struct Run {
        var paths: [String] = []
        /// Title and subtitle of each step shown, as stepShown carries them.
        var texts: [String: [String]] = [:]
        var heard: [String] = []
        var refusals: [String] = []
        var tappingShownUptime: [String: Double] = [:]
        var finishReason: String?
        var runDirectory = URL(fileURLWithPath: "/")
        var archive: URL?
    }

    let client: LineClient

    init(socket: String) throws {
        client = try LineClient(path: socket, timeout: 20)
        _ = try client.result("events.subscribe", ["kinds": ["stepShown", "promptSpoken", "taskFinished"]])
    }

    static func iso(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// A tapping result of four touches, three counted, as MotorControl's tapping step makes it.
    static func tappingResult(stepPath: String) -> [String: Any] {
        let start = Date()
        let buttons = ["left", "right", "none", "left"]
        return [
            "type": "tapping", "identifier": "tapping",
            "startDate": iso(start), "endDate": iso(start.addingTimeInterval(1)),
            "viewSize": "{320.0, 640.0}", "buttonRectLeft": "{{60.0, 500.0}, {40.0, 40.0}}",
            "buttonRectRight": "{{220.0, 500.0}, {40.0, 40.0}}", "tapCount": 3,
            "samples": buttons.enumerated().map { index, button in
                ["stepPath": stepPath, "timestamp": Double(index) * 0.25, "uptime": 5000 + Double(index) * 0.25,
                 "buttonIdentifier": button, "location": [80.0 + Double(index), 520.0], "duration": 0.1] as [String: Any]
            },
        ]
    }

    func run(_ file: String, hand: String, tapping: Bool,
             beforeTapping: ((LineClient, String) throws -> [String]) = { _, _ in [] }) throws -> Run {
        var run = Run()
        _ = try client.result("task.load", ["path": file])
        _ = try client.result("run.start")
        while true {
            let event = try next()
            switch event["kind"] as? String {
            case "promptSpoken":
                run.heard.append(event["text"] as? String ?? "")
            case "taskFinished":
                run.finishReason = event["reason"] as? String
                run.runDirectory = URL(fileURLWithPath: event["runDirectory"] as? String ?? "/")
                run.archive = (event["archive"] as? String).map { URL(fileURLWithPath: $0) }
                return run
            case "stepShown":
                let path = event["stepPath"] as? String ?? "?"
                let step = event["step"] as? [String: Any] ?? [:]
                run.paths.append(path)
                run.texts[path] = ["title", "subtitle", "text", "detail"].compactMap { step[$0] as? String }
                try settle()
                var params: [String: Any] = ["stepPath": path]
                switch step["type"] as? String {
                case "handSelection":
                    params["answers"] = [["identifier": "handSelection", "value": hand]]
                case "tapping" where tapping:
                    run.tappingShownUptime[path.split(separator: "/").dropLast().last.map(String.init) ?? ""] = event["uptime"] as? Double
                    // The first tap starts the timer and the section's motion recorder.
                    _ = try client.result("timer.start")
                    try waitForStartPrompt(of: step, path: path, into: &run)
                    run.refusals += try beforeTapping(client, path)
                    params["result"] = Self.tappingResult(stepPath: path)
                case "completion":
                    break
                default:
                    try waitForStartPrompt(of: step, path: path, into: &run)
                }
                _ = try client.result("run.forward", params)
            default:
                continue
            }
        }
    }

    private func next() throws -> [String: Any] { try client.nextEvent() }

    /// Answers every open permission request (granted) until the session runs.
    private func settle() throws {
        for _ in 0..<200 {
            let status = try client.result("run.status")
            if let request = status["permissionRequest"] as? [String: Any], let id = request["requestID"] as? Int {
                _ = try client.result("permission.answer", ["requestID": id, "granted": true])
                continue
            }
            if status["state"] as? String != "waitingForPermission" { return }
            usleep(20_000)
        }
        throw DaemonTestFailure("the session kept waiting for permission")
    }

    /// Waits (at most 15 s) until the step's `start` prompt, as stepShown gives it, begins to be heard.
    private func waitForStartPrompt(of step: [String: Any], path: String, into run: inout Run) throws {
        guard let start = (step["spokenInstructions"] as? [String: Any])?["start"] as? String else { return }
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let event = try next()
            if event["kind"] as? String == "promptSpoken" {
                run.heard.append(event["text"] as? String ?? "")
                if event["stepPath"] as? String == path, event["text"] as? String == start { return }
            }
        }
        throw DaemonTestFailure("the start prompt of \(path) was not heard within 15 s")
    }
}
