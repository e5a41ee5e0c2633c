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
            ("heartRate.after", "motion", "heartRateafter_motion"),
            ("Cardio Stair/Step", "mic rophone!", "CardioStairStep_microphone"),
            (nil, "ü", "recorder"),
        ])
    func baseNames(section: String?, identifier: String, expected: String) {
        #expect(RecorderFileName.baseName(sectionIdentifier: section, identifier: identifier) == expected)
    }

    @Test("A clash gets -N")
    func clashes() {
        #expect(RecorderFileName.unique(baseName: "motion", fileExtension: "json", taken: []) == "motion.json")
        #expect(RecorderFileName.unique(baseName: "motion", fileExtension: "json", taken: ["motion.json"]) == "motion-2.json")
        #expect(RecorderFileName.unique(baseName: "motion", fileExtension: "json", taken: ["motion.json", "motion-2.json"]) == "motion-3.json")
    }
}
