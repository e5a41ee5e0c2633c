import Testing
@testable import Quality

/// A file's kind for the checks, from its result: a levels file is known by its identifier even
/// when MobilePassiveData's 24-character cut took `_levels` off its name (docs/async-actions.md).
@Suite struct RecordedFileKindTests {
    @Test(arguments: [
        ("application/json", "heart_rate_microphoneRec.json", "microphoneRecorder_levels", RecordedFile.Kind.audioLevels),
        ("application/json", "microphone_levels.json", "microphone_levels", .audioLevels),
        ("application/json", "heart_rate_motion_record.json", "motion.record", .motion),
        ("audio/wav", "heart_rate_microphoneRec.wav", "microphoneRecorder", .audio),
    ])
    func kinds(contentType: String, relativePath: String, identifier: String, expected: RecordedFile.Kind) {
        #expect(RecordedFile.kind(contentType: contentType, relativePath: relativePath, identifier: identifier) == expected)
    }
}
