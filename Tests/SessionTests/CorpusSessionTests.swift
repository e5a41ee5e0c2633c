import Foundation
import Quality
import Session
import TaskModel
import TestSupport
import Testing

/// SageResearch's own tasks run end to end in process with the real recorders (`sim:` IMU, the
/// PulseAudio test devices), checked on the run directory they leave (docs/runs.md).
@Suite(
    "SageResearch corpus tasks end to end",
    .enabled(if: Fixtures.available, "The SageResearch corpus (../shared/fixtures/sage) is absent: corpus sessions skipped."))
struct CorpusSessionTests {
    static let motionSensors = ["accelerometer", "gyro", "gravity", "userAcceleration", "attitude", "rotationRate"]

    /// Every run: completed, the archive holds the recorder files then answers, taskResult and
    /// metadata, and metadata lists the files with the section path of their owners.
    func checkArchiveAndMetadata(
        _ run: RunOnDisk, archive: URL?, task: String, recorderFiles: [String: String?],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let archive = try #require(archive, sourceLocation: sourceLocation)
        let entries = try run.archiveEntries(archive)
        #expect(Set(entries) == Set(recorderFiles.keys).union(["answers.json", "taskResult.json", "metadata.json"]), sourceLocation: sourceLocation)
        #expect(Array(entries.suffix(3)) == ["answers.json", "taskResult.json", "metadata.json"], sourceLocation: sourceLocation)
        let metadata = try run.object("metadata.json")
        #expect(metadata["taskIdentifier"] as? String == task, sourceLocation: sourceLocation)
        for key in ["deviceInfo", "deviceTypeIdentifier", "appName", "appVersion", "rsdFrameworkVersion", "taskRunUUID", "startDate", "endDate"] {
            #expect(metadata[key] != nil, "metadata.json lacks \(key)", sourceLocation: sourceLocation)
        }
        let listed = metadata["files"] as? [[String: Any]] ?? []
        for (file, stepPath) in recorderFiles {
            let entry = listed.first { $0["filename"] as? String == file }
            #expect(entry != nil, "metadata.json does not list \(file)", sourceLocation: sourceLocation)
            #expect(entry?["stepPath"] as? String == stepPath, "stepPath of \(file)", sourceLocation: sourceLocation)
            #expect(entry?["timestamp"] is String, sourceLocation: sourceLocation)
        }
        #expect(listed.suffix(2).compactMap { $0["filename"] as? String } == ["answers.json", "taskResult.json"], sourceLocation: sourceLocation)
        // The quality checks, beside the run (not in the archive): every motion file judged.
        let quality = try run.object("qc.json")
        let checked = Set((quality["checks"] as? [[String: Any]] ?? []).compactMap { ($0["identifier"] as? String)?.split(separator: "/").first.map(String.init) })
        #expect(quality["verdict"] is String, sourceLocation: sourceLocation)
        if recorderFiles.keys.contains(where: { $0.hasSuffix("motion.json") }) {
            #expect(checked.contains("motion"), "qc.json judges no motion file", sourceLocation: sourceLocation)
        }
    }

    /// The transcript's last two events: the quality checks, then the end of the run.
    func checkQualityEvent(_ transcript: SessionHarness.Transcript, sourceLocation: SourceLocation = #_sourceLocation) -> QualityReport? {
        let kinds = transcript.events.suffix(2).map(\.kind)
        guard kinds.count == 2, case .qualityChecked(let report) = kinds[0], case .taskFinished = kinds[1] else {
            Issue.record("The run did not end with qualityChecked then taskFinished", sourceLocation: sourceLocation)
            return nil
        }
        return report as? QualityReport
    }

    @Test("HeartRate_Measurement hides cancel for the whole task: no step offers it, and run.cancel still ends the run")
    func hiddenCancel() async throws {
        let harness = try await SessionHarness.make(taskPath: Fixtures.path("CardiorespiratoryFitness-iOS/CRFHeartRate/CRFHeartRate/HeartRate_Measurement.json"),
                                                    name: "corpus-nocancel")
        let transcript = try await harness.runAutomatically { session, shown in
            // On the last step, a coordinator's tool stops the run all the same.
            guard shown.stepPath == "HeartRate Measurement/completion" else { return false }
            try await session.cancel(save: true)
            return true
        }
        let shown = transcript.events.compactMap { event -> StepShown? in
            if case .stepShown(let shown) = event.kind { return shown }
            return nil
        }
        #expect(shown.count >= 3 && shown.last?.stepPath == "HeartRate Measurement/completion", "\(transcript.steps)")
        #expect(shown.allSatisfy { !$0.allowedActions.contains("cancel") && $0.allowedActions.contains("forward") },
                "\(shown.map { "\($0.stepPath): \($0.allowedActions)" })")
        #expect(transcript.finished?.reason == .saved)
    }

    @Test("Walk_And_Balance: transforms load the walk and balance sections, each recording 30 s of motion")
    func walkAndBalance() async throws {
        let stalled = StallWitness.shared.mark()
        let harness = try await SessionHarness.make(taskPath: Fixtures.path(Fixtures.motorControl + "Walk_And_Balance.json"), name: "corpus-walk")
        let transcript = try await harness.runAutomatically()
        let finished = try #require(transcript.finished)
        #expect(finished.reason == .completed)
        #expect(transcript.steps == [
            "WalkAndBalance/introduction", "WalkAndBalance/walk/walkInstructions", "WalkAndBalance/walk/volumeUp",
            "WalkAndBalance/walk/pantsWithPocket", "WalkAndBalance/walk/phoneInPocket", "WalkAndBalance/walk/countdown",
            "WalkAndBalance/walk/motion", "WalkAndBalance/balance/turnAroundInstructions", "WalkAndBalance/balance/phoneInPocket",
            "WalkAndBalance/balance/countdown", "WalkAndBalance/balance/motion", "WalkAndBalance/completion",
        ])
        // The UI keys of a transformed step reach the front end as written.
        let shownMotion = transcript.events.compactMap { event -> StepShown? in
            if case .stepShown(let shown) = event.kind, shown.stepPath == "WalkAndBalance/walk/motion" { return shown }
            return nil
        }.first
        #expect(shownMotion?.step["title"]?.stringValue == "Walk back and forth")
        #expect(shownMotion?.step["actions"]?.objectValue?["reviewInstructions"] != nil)
        #expect(shownMotion?.allowedActions.contains("back") == false)
        #expect(shownMotion?.allowedActions.contains("cancel") == true)
        let commands = transcript.events.compactMap { event -> String? in
            if case .command("WalkAndBalance/walk/motion", let command) = event.kind { return command }
            return nil
        }
        // `vibrate` and `playSound` are SageResearch's start-and-finish commands.
        #expect(commands == ["playSoundOnStart", "vibrateOnStart", "playSoundOnFinish", "vibrateOnFinish"])

        let run = RunOnDisk(url: finished.runDirectory)
        let result = try run.object("taskResult.json")
        #expect(result["type"] as? String == "task" && result["identifier"] as? String == "WalkAndBalance")
        #expect(result["taskRunUUID"] as? String == harness.session.taskRunUUID.uuidString)
        #expect(RunOnDisk.identifiers(result["stepHistory"]) == ["introduction", "walk", "balance", "completion"])
        #expect(RunOnDisk.identifiers(result["path"]) == ["introduction", "walk", "balance", "completion"])
        #expect((result["path"] as? [[String: Any]] ?? []).allSatisfy { $0["direction"] as? String == "forward" })
        for (section, steps) in [
            ("walk", ["walkInstructions", "volumeUp", "pantsWithPocket", "phoneInPocket", "countdown", "motion"]),
            ("balance", ["turnAroundInstructions", "phoneInPocket", "countdown", "motion"]),
        ] {
            let sectionResult = try #require(RunOnDisk.result(section, in: result["stepHistory"]))
            #expect(sectionResult["type"] as? String == "section")
            #expect(sectionResult["endDate"] != nil)
            #expect(RunOnDisk.identifiers(sectionResult["stepHistory"]) == steps)
            #expect(RunOnDisk.identifiers(sectionResult["path"]) == steps)
            let file = try #require(RunOnDisk.result("motion", in: sectionResult["asyncResults"]))
            #expect(file["type"] as? String == "file")
            #expect(file["relativePath"] as? String == "\(section)_motion.json")
            #expect(file["contentType"] as? String == "application/json")
            #expect(file["startUptime"] is Double)
            try run.checkMotion("\(section)_motion.json", markers: ["WalkAndBalance/\(section)/motion"], sensors: Self.motionSensors, duration: 30, stalled: stalled.seconds)
        }
        #expect(result["asyncResults"] == nil || RunOnDisk.identifiers(result["asyncResults"]).isEmpty)
        #expect(try run.object("answers.json").isEmpty)
        try checkArchiveAndMetadata(run, archive: finished.archive, task: "WalkAndBalance",
                                    recorderFiles: ["walk_motion.json": "walk", "balance_motion.json": "balance"])
        // Full 30 s recordings at the rate asked for, no gaps: the motion checks are ok.
        let report = try #require(checkQualityEvent(transcript))
        let motionChecks = report.checks.filter { $0.identifier.hasPrefix("motion/") || $0.identifier.hasPrefix("motion") }
        #expect(!motionChecks.isEmpty)
        for check in motionChecks where ["rate", "sampleCount", "gaps"].contains(check.check) {
            #expect(check.verdict == .ok, "\(check.identifier) \(check.check): \(check.message)")
        }
        #expect(try run.object("qc.json")["verdict"] as? String == report.verdict.rawValue)
    }

    @Test("Tremor: the hand is chosen on a UI step; each hand's section records its own motion file")
    func tremor() async throws {
        let stalled = StallWitness.shared.mark()
        let harness = try await SessionHarness.make(
            taskPath: Fixtures.path(Fixtures.motorControl + "Tremor.json"), name: "corpus-tremor", policy: PermissionPolicy([.motion: .ask]))
        let early = SessionHarness.movingOnEarly(from: ["Tremor/right/tremor"], after: 4)
        let transcript = try await harness.runAutomatically { session, shown in
            if shown.stepPath == "Tremor/handSelection" {
                // The front end shows the hand question (a type the daemon does not interpret) and sends the answer.
                #expect(shown.type == "handSelection" && shown.duration == nil)
                try await session.forward(StepResultInput(answers: [
                    .init(identifier: "handSelection", value: .string("both"), answerType: .object(["type": .string("string")])),
                ]))
                return true
            }
            return try await early(session, shown)
        }
        let finished = try #require(transcript.finished)
        #expect(finished.reason == .completed)
        // `both` runs the hands in the order a coin gave, recorded in the handSelection collection.
        let order = try Self.handOrder(in: try RunOnDisk(url: finished.runDirectory).object("taskResult.json"))
        #expect(order == ["left", "right"] || order == ["right", "left"])
        #expect(transcript.steps == [
            "Tremor/introduction", "Tremor/handSelection", "Tremor/holdPhoneInstructions", "Tremor/sitDownInstruction",
        ] + order.flatMap { ["Tremor/\($0)/instruction", "Tremor/\($0)/tremor"] } + ["Tremor/completion"])
        // Motion is asked once for the run (the answer is remembered for the right hand), with the
        // reason the overview step gives although the recorder asks at the tremor step.
        let requests = transcript.events.compactMap { event -> PermissionRequest? in
            if case .permissionRequest(let request) = event.kind { return request }
            return nil
        }
        #expect(requests.map(\.permission) == ["motion"])
        #expect(requests.first?.reason == "Access to Motion and Fitness sensors is required to measure the phone's steadiness in your hand.")
        #expect(requests.first?.actions == ["motion"])
        let run = RunOnDisk(url: finished.runDirectory)
        let result = try run.object("taskResult.json")
        #expect(RunOnDisk.identifiers(result["stepHistory"]) == ["introduction", "handSelection", "holdPhoneInstructions", "sitDownInstruction"] + order + ["completion"])
        let hand = try #require(RunOnDisk.result("handSelection", in: result["stepHistory"]))
        #expect(hand["type"] as? String == "collection")
        #expect((hand["children"] as? [[String: Any]])?.first?["value"] as? String == "both")
        for section in ["left", "right"] {
            let sectionResult = try #require(RunOnDisk.result(section, in: result["stepHistory"]))
            #expect(RunOnDisk.identifiers(sectionResult["stepHistory"]) == ["instruction", "tremor"])
            let file = try #require(RunOnDisk.result("motion", in: sectionResult["asyncResults"]))
            #expect(file["relativePath"] as? String == "\(section)_motion.json")
            // The left hand runs its 30 s; the person moves on from the right hand after 4 s, which
            // stops its recorder (its stop step ended).
            let duration = section == "left" ? 30 : try #require(RunOnDisk.seconds(of: file))
            if section == "right" { #expect(duration > 3.5 && duration < 5.5 + stalled.seconds, "\(duration) s; \(stalled.description)") }
            try run.checkMotion("\(section)_motion.json", markers: ["Tremor/\(section)/tremor"], sensors: Self.motionSensors, duration: duration, stalled: stalled.seconds)
        }
        #expect(try run.object("answers.json")["handSelection"] as? String == "both")
        try checkArchiveAndMetadata(run, archive: finished.archive, task: "Tremor",
                                    recorderFiles: ["left_motion.json": "left", "right_motion.json": "right"])
        #expect(checkQualityEvent(transcript) != nil)
    }

    @Test("Recorder_Microphone: a section's gyro and microphone start with its countdown and keep the audio")
    func recorderMicrophone() async throws {
        let stalled = StallWitness.shared.mark()
        let harness = try await SessionHarness.make(
            taskPath: Fixtures.path(Fixtures.catalog + "Recorder_Microphone.json"), name: "corpus-microphone")
        let transcript = try await harness.runAutomatically()
        let finished = try #require(transcript.finished)
        #expect(finished.reason == .completed)
        #expect(transcript.steps == [
            "microphone/introduction", "microphone/shaker/instruction", "microphone/shaker/countdown",
            "microphone/shaker/motion", "microphone/completion",
        ])
        let run = RunOnDisk(url: finished.runDirectory)
        let result = try run.object("taskResult.json")
        #expect(result["versionString"] as? String == "1")
        // Key by key as docs/runs.md lists them (no task-level async results here).
        #expect(Set(result.keys) == ["type", "identifier", "taskRunUUID", "startDate", "endDate", "stepHistory", "path", "assessmentIdentifier", "versionString"])
        let section = try #require(RunOnDisk.result("shaker", in: result["stepHistory"]))
        #expect(Set(section.keys) == ["type", "identifier", "startDate", "endDate", "stepHistory", "asyncResults", "path"])
        let motionFile = try #require(RunOnDisk.result("motion", in: section["asyncResults"]))
        #expect(Set(motionFile.keys).subtracting(["notes"]) == ["type", "identifier", "startDate", "endDate", "relativePath", "contentType", "startUptime"])
        let metadata = try run.object("metadata.json")
        #expect(Set(metadata.keys) == [
            "deviceInfo", "deviceTypeIdentifier", "appName", "appVersion", "rsdFrameworkVersion", "taskIdentifier", "taskRunUUID",
            "startDate", "endDate", "schemaRevision", "versionString", "files",
        ])
        #expect(metadata["schemaRevision"] as? Int == 1)
        // Recorder files; answers.json and taskResult.json are listed without an identifier.
        for entry in (metadata["files"] as? [[String: Any]] ?? []).dropLast(2) {
            #expect(Set(entry.keys).subtracting(["stepPath"]) == ["filename", "timestamp", "contentType", "identifier"])
        }
        #expect(RunOnDisk.identifiers(section["stepHistory"]) == ["instruction", "countdown", "motion"])
        #expect(Set(RunOnDisk.identifiers(section["asyncResults"])) == ["motion", "microphone"])
        let audio = try #require(RunOnDisk.result("microphone", in: section["asyncResults"]))
        #expect(audio["type"] as? String == "collection")
        let audioFiles = (audio["children"] as? [[String: Any]] ?? []).compactMap { $0["relativePath"] as? String }.sorted()
        #expect(audioFiles == ["shaker_microphone.wav", "shaker_microphone_levels.json"])
        // Motion from the countdown (5 s) through the 30 s active step; a marker at the step change.
        let markers = try run.checkMotion(
            "shaker_motion.json", markers: ["microphone/shaker/countdown", "microphone/shaker/motion"], sensors: ["gyro"], duration: 35,
            stalled: stalled.seconds)
        #expect(markers.count == 2 && markers[1] - 5 > -0.3 && markers[1] - 5 < TestTiming.tolerance(0.3) + stalled.seconds, "\(markers); \(stalled.description)")
        let levels = try run.records("shaker_microphone_levels.json")
        // One levels record a second of audio; the audio runs longer by the time the machine stalled.
        #expect(levels.count >= 33 && Double(levels.count) <= 36 + stalled.seconds.rounded(.up), "\(levels.count) levels records; \(stalled.description)")
        #expect(levels.allSatisfy { $0["unit"] as? String == "dbFS" })
        let wav = try Data(contentsOf: run.url.appendingPathComponent("shaker_microphone.wav"))
        func field(_ offset: Int, _ size: Int) -> Int { wav[offset..<offset + size].reversed().reduce(0) { $0 << 8 | Int($1) } }
        let seconds = Double(wav.count - 44) / Double(field(24, 4) * field(32, 2))
        // The microphone ran 35 s; the audio recorder delivers one to two seconds less: its first
        // frames come about 1.5 s after the start through this PulseAudio monitor (issue 22 item
        // 6, docs/benchmarks.md, not fixed yet). 32.9 s was seen in the recordings pass.
        #expect(seconds > 35 - TestTiming.tolerance(3) && seconds < 36.5 + stalled.seconds, "\(seconds) s of audio; \(stalled.description)")
        try checkArchiveAndMetadata(run, archive: finished.archive, task: "microphone", recorderFiles: [
            "shaker_motion.json": "shaker", "shaker_microphone.wav": "shaker/microphone", "shaker_microphone_levels.json": "shaker/microphone",
        ])
        #expect(checkQualityEvent(transcript) != nil)
    }

    @Test("Heart_Snapshot: a type alias makes heartRate a timed step; motion stops when the person leaves its stop step early")
    func heartSnapshot() async throws {
        let stalled = StallWitness.shared.mark()
        let harness = try await SessionHarness.make(
            taskPath: Fixtures.path("CardiorespiratoryFitness-iOS/CardiorespiratoryFitness/CardiorespiratoryFitness/Swift/iOS/Resources/Base.lproj/Heart_Snapshot.json"),
            name: "corpus-heart", typeAliases: ["heartRate": "active"])
        let early = SessionHarness.movingOnEarly(from: ["HeartSnapshot/stairStep", "HeartSnapshot/hr"], after: 3)
        let transcript = try await harness.runAutomatically { session, shown in
            switch shown.stepPath {
            case "HeartSnapshot/gender":
                try await session.forward(StepResultInput(answers: [.init(identifier: "gender", value: .string("female"))]))
                return true
            case "HeartSnapshot/birthYear":
                try await session.forward(StepResultInput(answers: [.init(identifier: "birthYear", value: .number(1970))]))
                return true
            default:
                return try await early(session, shown)
            }
        }
        let finished = try #require(transcript.finished)
        #expect(finished.reason == .completed)
        #expect(transcript.steps.map { $0.replacingOccurrences(of: "HeartSnapshot/", with: "") } == [
            "introduction", "heartRisk", "demographics", "gender", "birthYear", "volumeUp", "bringPhone", "countdown",
            "stairStep", "hr", "feedback",
        ])
        let shown = transcript.events.compactMap { event -> StepShown? in
            if case .stepShown(let shown) = event.kind { return shown }
            return nil
        }
        // The alias gives heartRate a timer; the type is handed on as written.
        let hr = try #require(shown.first { $0.stepPath == "HeartSnapshot/hr" })
        #expect(hr.type == "heartRate" && hr.duration == 60)
        #expect(shown.first { $0.stepPath == "HeartSnapshot/feedback" }?.duration == nil)
        let run = RunOnDisk(url: finished.runDirectory)
        let result = try run.object("taskResult.json")
        let file = try #require(RunOnDisk.result("motion", in: result["asyncResults"]))
        // The stop rule: leaving stairStep (its stop step) stopped the motion recorder before hr showed.
        let hrResult = try #require(RunOnDisk.result("hr", in: result["stepHistory"]))
        let stopToHr = try #require(RunOnDisk.seconds(of: ["startDate": file["endDate"] as Any, "endDate": hrResult["startDate"] as Any]))
        #expect(stopToHr >= -0.002 && stopToHr < 1)
        #expect(file["relativePath"] as? String == "motion.json")
        let recorded = try #require(RunOnDisk.seconds(of: file))
        #expect(recorded > 13.5 - TestTiming.tolerance(1) && recorded < 13.5 + TestTiming.tolerance(1) + stalled.seconds, "\(recorded) s; \(stalled.description)")
        let markers = try run.checkMotion(
            "motion.json", markers: ["HeartSnapshot/countdown", "HeartSnapshot/stairStep"], sensors: ["accelerometer"], duration: recorded)
        #expect(markers.count == 2 && markers[1] - 10 > -0.3 && markers[1] - 10 < TestTiming.tolerance(0.3) + stalled.seconds, "\(markers); \(stalled.description)")
        let answers = try run.object("answers.json")
        #expect(answers["gender"] as? String == "female" && answers["birthYear"] as? Double == 1970)
        let gender = try #require(RunOnDisk.result("gender", in: result["stepHistory"]))
        #expect(gender["type"] as? String == "answer")
        try checkArchiveAndMetadata(run, archive: finished.archive, task: "HeartSnapshot", recorderFiles: ["motion.json": nil])
        #expect(checkQualityEvent(transcript) != nil)
    }

    /// The `handOrder` answer of the `handSelection` collection in `result`'s step history.
    static func handOrder(in result: [String: Any]) throws -> [String] {
        let selection = try #require(RunOnDisk.result("handSelection", in: result["stepHistory"]))
        let children = selection["children"] as? [[String: Any]] ?? []
        return try #require(children.first { $0["identifier"] as? String == "handOrder" }?["value"] as? [String])
    }

    @Test("Finger_Tapping: hand steps pass through to the front end; tapping (aliased to active) records each hand")
    func fingerTapping() async throws {
        let stalled = StallWitness.shared.mark()
        let harness = try await SessionHarness.make(
            taskPath: Fixtures.path(Fixtures.motorControl + "Finger_Tapping.json"), name: "corpus-tapping",
            typeAliases: ["tapping": "active"])
        let early = SessionHarness.movingOnEarly(from: ["Tapping/left/tapping", "Tapping/right/tapping"], after: 3)
        let transcript = try await harness.runAutomatically { session, shown in
            if shown.stepPath == "Tapping/handSelection" {
                try await session.forward(StepResultInput(answers: [.init(identifier: "handSelection", value: .string("both"))]))
                return true
            }
            return try await early(session, shown)
        }
        let finished = try #require(transcript.finished)
        #expect(finished.reason == .completed)
        let order = try Self.handOrder(in: try RunOnDisk(url: finished.runDirectory).object("taskResult.json"))
        #expect(order == ["left", "right"] || order == ["right", "left"])
        #expect(transcript.steps == [
            "Tapping/introduction", "Tapping/fingerTappingInstructions", "Tapping/handSelection", "Tapping/phoneOnTableInstruction",
            "Tapping/tappingFirstHandInstruction",
        ] + order.map { "Tapping/\($0)/tapping" } + ["Tapping/completion"])
        // Steps the daemon does not interpret reach the front end with every key as written.
        let passed = transcript.events.compactMap { event -> StepShown? in
            if case .stepShown(let shown) = event.kind, shown.stepPath == "Tapping/tappingFirstHandInstruction" { return shown }
            return nil
        }.first
        #expect(passed?.type == "handInstruction" && passed?.duration == nil)
        // The `%@` names the first hand to run (docs/task-format.md, "Hands").
        #expect(passed?.step["title"]?.stringValue == "First, tap with your \(order[0].uppercased()) hand")
        #expect(passed?.step["actions"]?.objectValue?["goForward"]?.objectValue?["buttonTitle"]?.stringValue == "Start the test")

        let run = RunOnDisk(url: finished.runDirectory)
        let result = try run.object("taskResult.json")
        for section in ["left", "right"] {
            let sectionResult = try #require(RunOnDisk.result(section, in: result["stepHistory"]))
            #expect(RunOnDisk.identifiers(sectionResult["stepHistory"]) == ["tapping"])
            let file = try #require(RunOnDisk.result("motion", in: sectionResult["asyncResults"]))
            let recorded = try #require(RunOnDisk.seconds(of: file))
            #expect(recorded > 2.5 && recorded < 4.5 + stalled.seconds, "\(recorded) s; \(stalled.description)")
            try run.checkMotion("\(section)_motion.json", markers: ["Tapping/\(section)/tapping"], sensors: Self.motionSensors, duration: recorded)
        }
        #expect(try run.object("answers.json")["handSelection"] as? String == "both")
        try checkArchiveAndMetadata(run, archive: finished.archive, task: "Tapping",
                                    recorderFiles: ["left_motion.json": "left", "right_motion.json": "right"])
        #expect(checkQualityEvent(transcript) != nil)
    }
}
