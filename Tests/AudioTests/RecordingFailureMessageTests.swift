import ALSA
import AsyncActions
import Testing

@testable import Audio

@Suite("The microphone's failure message")
struct RecordingFailureMessageTests {
    struct PlainError: Error, CustomStringConvertible {
        var description: String
    }

    @Test(
        "One sentence per thought, whatever ended the capture",
        arguments: [
            (
                ALSAError(code: -19, operation: "read", device: "hw:1", reason: "No such device") as any Error,
                "The microphone \"hw:1\" failed while recording: could not read: No such device (error -19). The files keep what was recorded before the failure; check that the device is connected and not used by another program, then start the task again."
            ),
            (
                PlainError(description: "The capture thread stopped.") as any Error,
                "The microphone \"hw:1\" failed while recording: The capture thread stopped. The files keep what was recorded before the failure; check that the device is connected and not used by another program, then start the task again."
            ),
            (
                PlainError(description: "no data") as any Error,
                "The microphone \"hw:1\" failed while recording: no data. The files keep what was recorded before the failure; check that the device is connected and not used by another program, then start the task again."
            ),
        ])
    func message(error: any Error, expected: String) {
        let failure = MicrophoneRecorderBackend.recordingFailure(device: "hw:1", error)
        #expect(failure.code == .deviceFailed)
        #expect(failure.message == expected)
        #expect(!failure.message.contains(".."))
    }
}
