import Foundation
import Logging
import Testing

@testable import AsyncActions

@Suite("Async action status and recorder file names")
struct AsyncActionStatusTests {
    @Test("Status only moves forward and never out of a final status")
    func forwardOnly() {
        for from in AsyncActionStatus.allCases {
            for to in AsyncActionStatus.allCases {
                let expected = from.rawValue < to.rawValue && from.rawValue < AsyncActionStatus.finished.rawValue
                #expect(from.canMove(to: to) == expected, "\(from) → \(to)")
            }
        }
    }

    @Test("Status names round-trip", arguments: AsyncActionStatus.allCases)
    func names(status: AsyncActionStatus) {
        #expect(AsyncActionStatus(name: status.description) == status)
    }

    @Test(
        "File base names follow SageResearch",
        arguments: [
            (String?.none, "motion", "motion"),
            ("walk", "motion", "walk_motion"),
            // `.` and spaces become `_`; other characters outside letters, digits, - and _
            // go (a tab too: only spaces become `_`); the name is cut to 24 characters
            // (MobilePassiveData FileUtility.filename).
            ("heartRate.after", "motion", "heartRate_after_motion"),
            ("Cardio Stair/Step", "mic rophone!", "Cardio_StairStep_mic_rop"),
            (nil, "a\tb c-d_e", "ab_c-d_e"),
            ("walkAndBalanceSection", "accelerometer", "walkAndBalanceSection_ac"),
            (nil, "ü", "ü"),
            (nil, "x²", "x²"),
        ])
    func baseNames(section: String?, identifier: String, expected: String) {
        #expect(RecorderFileName.baseName(sectionIdentifier: section, identifier: identifier) == expected)
        #expect(RecorderFileName.followsRule(expected))
    }

    /// FileUtility.filename applied to whole logger identifiers: the microphone's levels logger
    /// is `<section>_<identifier>_levels`, cut like any other name (it used to be the cut base
    /// name plus `_levels`, `heart_rate_microphoneRec_levels`, which MobilePassiveData never writes).
    @Test(
        "filename(for:) of whole logger identifiers",
        arguments: [
            ("heart_rate_microphoneRecorder_levels", "heart_rate_microphoneRec"),
            ("left_microphone_levels", "left_microphone_levels"),
            ("microphone_levels", "microphone_levels"),
            ("shaker_microphone_levels", "shaker_microphone_levels"),
            ("walk.and balance", "walk_and_balance"),
        ])
    func filenames(identifier: String, expected: String) {
        #expect(RecorderFileName.filename(for: identifier) == expected)
    }

    @Test("An identifier with nothing left gets a UUID, as FileUtility does")
    func emptyNames() {
        let name = RecorderFileName.filename(for: "/!?")
        #expect(UUID(uuidString: name) != nil)
        #expect(RecorderFileName.followsRule(name))
    }

    @Test(
        "The rule the archive tests check names against",
        arguments: [
            ("heart_rate_microphoneRec", true), ("motion-0001", true), ("microphone_levels-A3F9", true),
            ("heart_rate_microphoneRec_levels", false), ("has space", false), ("dot.ted", false),
            ("heart_rate_microphoneRec_l-0001", false), ("", false),
        ])
    func rule(name: String, follows: Bool) {
        #expect(RecorderFileName.followsRule(name) == follows)
    }

    @Test("A clash gets -XXXX, four characters as FileUtility's")
    func clashes() {
        #expect(RecorderFileName.unique(name: "motion", fileExtension: "json", taken: []) == "motion.json")
        #expect(RecorderFileName.unique(name: "motion", fileExtension: "json", taken: ["motion.json"]) == "motion-0001.json")
        #expect(RecorderFileName.unique(name: "motion", fileExtension: "json", taken: ["motion.json", "motion-0001.json"]) == "motion-0002.json")
        // The run's own files are never taken by a recorder.
        #expect(RecorderFileName.unique(name: "taskResult", fileExtension: "json", taken: []) == "taskResult-0001.json")
    }

    @Test("An output names each logger's file on its own; deletePrevious reuses a name unless protected")
    func outputClaims() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("claims-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = RecorderOutput(directory: directory, sectionIdentifier: "heart_rate", identifier: "microphoneRecorder",
                                    protectedNames: ["heart_rate_microphoneRec.wav"], taskRunUUID: UUID(), ownerPath: "T/heart_rate",
                                    logger: Logger(label: "test"))
        let first = try output.claimFiles([("", "wav"), ("_levels", "json")], deletePrevious: true)
        #expect(first.map(\.lastPathComponent) == ["heart_rate_microphoneRec-0001.wav", "heart_rate_microphoneRec.json"])
        for url in first { try Data().write(to: url) }
        let again = try output.claimFiles([("", "wav"), ("_levels", "json")], deletePrevious: false)
        #expect(again.map(\.lastPathComponent) == ["heart_rate_microphoneRec-0002.wav", "heart_rate_microphoneRec-0001.json"])
        let replaced = try output.claimFiles([("_levels", "json")], deletePrevious: true)
        #expect(replaced.map(\.lastPathComponent) == ["heart_rate_microphoneRec.json"])
        #expect(output.claims.all.map(\.identifier) == ["microphoneRecorder", "microphoneRecorder_levels", "microphoneRecorder",
                                                        "microphoneRecorder_levels", "microphoneRecorder_levels"])
    }
}
