import Foundation
import TestSupport
import Testing
@testable import TaskModel

/// Every file of SageResearch's corpus decodes as SageResearch decodes it.
@Suite("SageResearch corpus", .enabled(if: Fixtures.available, "../shared/fixtures is absent: corpus decoding skipped"))
struct CorpusDecodingTests {
    /// A corpus file and what it must decode to: kind, identifier, top-level step count.
    struct Expectation: CustomTestStringConvertible, Sendable {
        var file: String
        var kind: String
        var identifier: String
        var stepCount: Int
        var warnings: [String]
        var testDescription: String { file }
    }

    static let expectations: [Expectation] = [
        .init(file: Fixtures.motorControl + "Walk_And_Balance.json", kind: "task", identifier: "WalkAndBalance", stepCount: 4, warnings: []),
        .init(file: Fixtures.motorControl + "WalkSectionStep.json", kind: "section", identifier: "walk", stepCount: 6, warnings: []),
        .init(file: Fixtures.motorControl + "BalanceSectionStep.json", kind: "section", identifier: "balance", stepCount: 4, warnings: []),
        .init(file: Fixtures.motorControl + "Walk_30seconds.json", kind: "task", identifier: "Walk30Seconds", stepCount: 3, warnings: []),
        .init(file: Fixtures.motorControl + "Tremor.json", kind: "task", identifier: "Tremor", stepCount: 7, warnings: []),
        .init(file: Fixtures.motorControl + "TremorSectionStep.json", kind: "section", identifier: "tremor", stepCount: 2, warnings: [
            "steps[1].actions.reviewInstructions.skipToIdentifier: warning: The action \"reviewInstructions\" skips to \"holdPhoneInstructions\", which names no step of the task; the front end should not offer it.",
        ]),
        .init(file: Fixtures.motorControl + "Kinetic_Tremor.json", kind: "task", identifier: "Kinetic Tremor", stepCount: 9, warnings: []),
        .init(file: Fixtures.motorControl + "KineticTremorSectionStep.json", kind: "section", identifier: "tremor", stepCount: 3, warnings: [
            "steps[2].actions.reviewInstructions.skipToIdentifier: warning: The action \"reviewInstructions\" skips to \"holdPhoneInstructions\", which names no step of the task; the front end should not offer it.",
        ]),
        .init(file: Fixtures.motorControl + "Finger_Tapping.json", kind: "task", identifier: "Tapping", stepCount: 8, warnings: []),
        .init(file: Fixtures.motorControl + "TappingSectionStep.json", kind: "section", identifier: "tapping", stepCount: 1, warnings: []),
        .init(file: "CardiorespiratoryFitness-iOS/CardiorespiratoryFitness/CardiorespiratoryFitness/Swift/iOS/Resources/Base.lproj/Heart_Snapshot.json",
              kind: "task", identifier: "HeartSnapshot", stepCount: 11, warnings: []),
        .init(file: "CardiorespiratoryFitness-iOS/CRFHeartRate/CRFHeartRate/HeartRate_Measurement.json", kind: "task",
              identifier: "HeartRate Measurement", stepCount: 3, warnings: ["type: warning: The task has no type; it runs as \"assessment\"."]),
        .init(file: Fixtures.catalog + "Recorder_Motion.json", kind: "task", identifier: "motion", stepCount: 3, warnings: []),
        .init(file: Fixtures.catalog + "Recorder_Microphone.json", kind: "task", identifier: "microphone", stepCount: 3, warnings: []),
        .init(file: Fixtures.catalog + "Recorder_Distance.json", kind: "task", identifier: "distance", stepCount: 2, warnings: []),
        .init(file: Fixtures.catalog + "SimpleSurvey.json", kind: "task", identifier: "list", stepCount: 5, warnings: []),
        .init(file: "SageResearch/RSDTest/RSDTest/TaskFoo.json", kind: "task", identifier: "foo", stepCount: 4, warnings: [
            "type: warning: The task has no type; it runs as \"assessment\".",
            "steps[0].actions.skip.skipToIdentifier: warning: The action \"skip\" skips to \"selectOne\", which names no step of the task; the front end should not offer it.",
        ]),
        .init(file: "SageResearch/Research/ResearchTests/Resources/FactoryTest_TaskFoo.json", kind: "task", identifier: "foo", stepCount: 5, warnings: [
            "steps[4]: warning: The taskInfo step \"step5\" names no task that was found (an inline \"task\", or step5.json or its taskTransformer's file in the task directory); it is shown to the front end as a step.",
        ]),
        .init(file: "SageResearch/Research/ResearchTests/Resources/FactoryTest_StepTransform.json", kind: "step", identifier: "step3", stepCount: 0, warnings: []),
        .init(file: "SageResearch/Research/ResearchTests/Resources/FactoryTest_TaskGroup.json", kind: "task group", identifier: "foobar", stepCount: 0, warnings: []),
        .init(file: Fixtures.mpd + "MotionRecorder/motion_config_custom.json", kind: "async action configuration", identifier: "foo", stepCount: 0, warnings: []),
        .init(file: Fixtures.mpd + "MotionRecorder/motion_config_default.json", kind: "async action configuration", identifier: "foo", stepCount: 0, warnings: []),
    ]

    @Test("decodes", arguments: expectations)
    func decodes(_ expectation: Expectation) throws {
        let loaded = try TaskLoader().load(path: Fixtures.path(expectation.file))
        #expect(loaded.document.kindDescription == expectation.kind)
        #expect(loaded.warnings.map(\.description) == expectation.warnings)
        switch loaded.document {
        case .task(let task):
            #expect(task.identifier == expectation.identifier)
            #expect(task.steps.count == expectation.stepCount)
        case .step(let step):
            #expect(step.identifier == expectation.identifier)
            #expect((step.container?.steps.count ?? 0) == expectation.stepCount)
        case .taskGroup(let group):
            #expect(group.identifier == expectation.identifier)
            #expect(group.tasks.map(\.identifier) == ["foo", "bar"])
        case .asyncAction(let configuration):
            #expect(configuration.identifier == expectation.identifier)
        }
    }

    /// Every JSON file of the corpus is either expected above or is not a task file at all.
    @Test func everyCorpusFileIsCovered() throws {
        let enumerator = try #require(FileManager.default.enumerator(atPath: Fixtures.sage.path))
        let all = Set(enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") })
        let notTaskFiles: Set<String> = [
            "SageResearch/Documentation/JsonSchema/SageResearch.schema.json",
            Fixtures.mpd + "AudioRecorder/microphone_levels_record.json",
            Fixtures.mpd + "MotionRecorder/motion_record_attitude.json",
            Fixtures.mpd + "MotionRecorder/motion_record_gyro.json",
            Fixtures.mpd + "MotionRecorder/motion_record_marker.json",
        ]
        #expect(all == Set(Self.expectations.map(\.file)).union(notTaskFiles))
        for file in notTaskFiles.sorted() {
            #expect(throws: TaskLoadError(file: Fixtures.path(file), codingPath: "identifier",
                                          reason: "The required key \"identifier\" is missing; add it.")) {
                try TaskLoader().load(path: Fixtures.path(file))
            }
        }
    }

    @Test func transformsResolveRelativeToTheIncludingFileAndTakeTheTransformIdentifier() throws {
        let (task, _) = try TaskLoader().loadTask(path: Fixtures.path(Fixtures.motorControl + "Walk_And_Balance.json"))
        #expect(task.type == TaskType(rawValue: "motorControlTask"))
        let walk = task.steps[1]
        #expect(walk.identifier == "walk")
        #expect(walk.kind == .section)
        #expect(walk.type == .section)
        #expect(walk.loadedFrom == Fixtures.path(Fixtures.motorControl + "WalkSectionStep.json"))
        #expect(walk.container?.steps.map(\.identifier) == ["walkInstructions", "volumeUp", "pantsWithPocket", "phoneInPocket", "countdown", "motion"])
        let motion = try #require(walk.container?.asyncActions.first as? MotionRecorderConfiguration)
        #expect(motion == MotionRecorderConfiguration(
            identifier: "motion", startStepIdentifier: "motion", stopStepIdentifier: "motion", requiresBackgroundAudio: true,
            recorderTypes: [.accelerometer, .gyro, .gravity, .userAcceleration, .attitude, .rotationRate]))
        #expect(motion.effectiveFrequency == 100)
        let countdown = try #require(walk.container?.steps[4])
        #expect(countdown.kind == .countdown)
        #expect(countdown.effectiveDuration == 5)
        #expect(countdown.commands == [.playSoundOnStart, .transitionAutomatically, .speakWarningOnPause])
        #expect(countdown.spokenInstructions == ["start": "Place the phone in your pocket."])
        // Tasks of the same file twice (left/right) load the section twice under each identifier.
        let (tremor, _) = try TaskLoader().loadTask(path: Fixtures.path(Fixtures.motorControl + "Tremor.json"))
        #expect(tremor.steps.map(\.identifier) == ["introduction", "handSelection", "holdPhoneInstructions", "sitDownInstruction", "left", "right", "completion"])
        #expect(tremor.steps[4].container?.steps.map(\.identifier) == ["instruction", "tremor"])
    }

    @Test func trailingCommasAreAccepted() throws {
        let (task, _) = try TaskLoader().loadTask(path: Fixtures.path("SageResearch/RSDTest/RSDTest/TaskFoo.json"))
        #expect(task.type == nil)
        #expect(task.steps[2].kind == .countdown)
        #expect(task.steps[3].spokenInstructions == ["0": "Start moving", "5": "Keep going", "halfway": "Halfway there", "end": "Stop moving"])
        #expect(task.properties["shouldHideActions"] == .array([.string("skip")]))
    }

    @Test func unknownStepTypesAndKeysArePassedThrough() throws {
        let (task, _) = try TaskLoader().loadTask(path: Fixtures.path(Fixtures.motorControl + "Finger_Tapping.json"))
        let hand = task.steps[2]
        #expect(hand.kind == .ui)
        #expect(hand.type == StepType(rawValue: "handSelection"))
        #expect(task.properties["usesTrackedData"] == .bool(true))
        let overview = task.steps[0]
        #expect(overview.properties["icons"] == .array([.object(["icon": .string("FlatSurface"), "title": .string("A FLAT SURFACE")])]))
        #expect(overview.properties["permissions"]?.arrayValue?.first?["optional"] == .bool(true))
        // MotorControl's tapping step is built in as an active step (its factory's type).
        let tapping = try #require(task.steps[5].container?.steps.first)
        #expect(tapping.kind == .active)
        #expect(tapping.properties["duration"] == .integer(30))
        // A custom section type keeps its async actions verbatim for the front end.
        let (heart, _) = try TaskLoader().loadTask(path: Fixtures.path("CardiorespiratoryFitness-iOS/CRFHeartRate/CRFHeartRate/HeartRate_Measurement.json"))
        #expect(heart.steps[1].kind == .ui)
        #expect(heart.steps[1].properties["asyncActions"]?.arrayValue?.first?["stopStepIdentifier"] == .string("heartRate"))
    }

    @Test func typeAliasesMapCustomTypesOntoBuiltIns() throws {
        var registry = TypeRegistry()
        try registry.apply(TypeAliasTable(typeAliases: ["handInstruction": "instruction", "tapping": "active"]))
        let (task, _) = try TaskLoader(registry: registry).loadTask(path: Fixtures.path(Fixtures.motorControl + "Finger_Tapping.json"))
        #expect(task.steps[3].kind == .instruction)
        #expect(task.steps[3].type == StepType(rawValue: "handInstruction"))
        let tapping = try #require(task.steps[5].container?.steps.first)
        #expect(tapping.kind == .active)
        #expect(tapping.effectiveDuration == 30)
    }

    @Test func asyncActionConfigurationsDecodeWithSageResearchDefaults() throws {
        let (microphoneTask, _) = try TaskLoader().loadTask(path: Fixtures.path(Fixtures.catalog + "Recorder_Microphone.json"))
        let actions = try #require(microphoneTask.steps[1].container?.asyncActions)
        #expect((actions[0] as? MotionRecorderConfiguration)?.recorderTypes == [.gyro])
        let microphone = try #require(actions[1] as? AudioRecorderConfiguration)
        #expect(microphone == AudioRecorderConfiguration(identifier: "microphone", startStepIdentifier: "countdown", requiresBackgroundAudio: true, saveAudioFile: true))
        let (distanceTask, _) = try TaskLoader().loadTask(path: Fixtures.path(Fixtures.catalog + "Recorder_Distance.json"))
        let distance = try #require(distanceTask.steps[0].container?.asyncActions.first as? DistanceRecorderConfiguration)
        #expect(distance == DistanceRecorderConfiguration(identifier: "location", startStepIdentifier: "countdown", motionStepIdentifier: "walk"))
        let custom = try TaskLoader().load(path: Fixtures.path(Fixtures.mpd + "MotionRecorder/motion_config_custom.json"))
        guard case .asyncAction(let configuration) = custom.document else { Issue.record("not a configuration"); return }
        #expect(configuration as? MotionRecorderConfiguration == MotionRecorderConfiguration(
            identifier: "foo", startStepIdentifier: "start", stopStepIdentifier: "stop", requiresBackgroundAudio: true,
            recorderTypes: [.accelerometer, .gyro, .magnetometer], frequency: 50))
    }
}
