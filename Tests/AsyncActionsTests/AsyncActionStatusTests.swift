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
            // `.` and whitespace become `_`; other characters outside letters, digits, - and _
            // go; the name is cut to 24 characters (MobilePassiveData FileUtility.filename).
            ("heartRate.after", "motion", "heartRate_after_motion"),
            ("Cardio Stair/Step", "mic rophone!", "Cardio_StairStep_mic_rop"),
            (nil, "a\tb c-d_e", "a_b_c-d_e"),
            ("walkAndBalanceSection", "accelerometer", "walkAndBalanceSection_ac"),
            (nil, "ü", "ü"),
            (nil, "/!?", "recorder"),
        ])
    func baseNames(section: String?, identifier: String, expected: String) {
        #expect(RecorderFileName.baseName(sectionIdentifier: section, identifier: identifier) == expected)
    }

    @Test("A clash gets -N")
    func clashes() {
        #expect(RecorderFileName.unique(baseName: "motion", fileExtension: "json", taken: []) == "motion.json")
        #expect(RecorderFileName.unique(baseName: "motion", fileExtension: "json", taken: ["motion.json"]) == "motion-2.json")
        #expect(RecorderFileName.unique(baseName: "motion", fileExtension: "json", taken: ["motion.json", "motion-2.json"]) == "motion-3.json")
        // The run's own files are never taken by a recorder.
        #expect(RecorderFileName.unique(baseName: "taskResult", fileExtension: "json", taken: []) == "taskResult-2.json")
        // Files sharing a base name move together to the first -N free for all of them.
        #expect(
            RecorderFileName.unique(
                baseName: "microphone", files: [("", "wav"), ("_levels", "json")], taken: ["microphone.wav", "microphone-2_levels.json"])
                == ["microphone-3.wav", "microphone-3_levels.json"])
    }
}
