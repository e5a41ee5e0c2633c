import AsyncActions
import Audio
import Foundation
import Logging
import Motion
import Recorders
import TaskModel
import Testing

/// `AsyncActionControllerRegistry.builtIn(motion:microphone:)`: each factory makes its
/// controllers with the device settings it was given (AsyncActions names no device).
@Suite("Built-in controller registry")
struct BuiltInRegistryTests {
    /// A registry, a configuration, and what asking permission gives.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var registry: AsyncActionControllerRegistry
        var configuration: any AsyncActionConfiguration
        /// nil: permission is granted; else the error's code and words its message names.
        var refusal: (code: AsyncActionError.Code, naming: String)?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "motion opens the IIO URI it was made with, with fusion for attitude",
            registry: .builtIn(motion: MotionDeviceSettings(iioURI: "sim:still")),
            configuration: MotionRecorderConfiguration(identifier: "motion", recorderTypes: [.accelerometer, .attitude]),
            refusal: nil),
        Case(
            name: "motion refuses a URI it cannot open, naming it",
            registry: .builtIn(motion: MotionDeviceSettings(iioURI: "sim:flying")),
            configuration: MotionRecorderConfiguration(identifier: "motion"),
            refusal: (.permissionDenied, "sim:flying")),
        Case(
            name: "the microphone opens the capture PCM it was made with, naming it",
            registry: .builtIn(microphone: MicrophoneSettings(device: "activetask-no-such-pcm")),
            configuration: AudioRecorderConfiguration(identifier: "microphone"),
            refusal: (.permissionDenied, "activetask-no-such-pcm")),
        Case(
            name: "distance stays unsupported",
            registry: .builtIn(),
            configuration: DistanceRecorderConfiguration(identifier: "distance"),
            refusal: (.unsupported, "distance")),
    ]

    @Test(arguments: cases)
    func permission(_ testCase: Case) async throws {
        let output = RecorderOutput(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("builtin-registry-\(UUID().uuidString)"),
            baseName: testCase.configuration.identifier, taskRunUUID: UUID(), ownerPath: "Task", logger: Logger(label: "test"))
        let controller = testCase.registry.makeController(for: testCase.configuration, output: output)
        defer { try? FileManager.default.removeItem(at: output.directory) }
        do {
            try await controller.requestPermission()
            #expect(testCase.refusal == nil, "Permission was granted.")
        } catch let error as AsyncActionError {
            let refusal = try #require(testCase.refusal, "Permission was refused: \(error)")
            #expect(error.code == refusal.code)
            #expect(error.message.contains(refusal.naming), "\(error.message)")
        }
        await controller.cancel()
    }
}
