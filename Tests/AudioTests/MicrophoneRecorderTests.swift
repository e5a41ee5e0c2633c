import TestSupport
import Clocks
import ALSA
import AsyncActions
import Audio
import Foundation
import Logging
import TaskModel
import Testing

@Suite("Microphone recorder on a type-file capture PCM")
struct MicrophoneRecorderTests {
    let logger = Logger(label: "test.microphone")

    /// 1 s of a half-scale sine, 1 s of a quarter-scale square, 0.5 s of silence, then padding
    /// (the file plugin repeats stale data past the end of its infile).
    static let rate = 16_000
    static let signal: [Int16] = TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 1, rate: rate)
        + TestSignals.square(amplitude: 8_192, seconds: 1, rate: rate)
        + [Int16](repeating: 0, count: rate / 2)
        + TestSignals.sine(frequency: 1_000, amplitude: 0.1, seconds: 1, rate: rate)

    private func makeRecorder(
        in directory: URL, device: String, saveAudioFile: Bool, duration: Double?
    ) -> MicrophoneRecorder {
        let output = RecorderOutput(directory: directory, baseName: "microphone", taskRunUUID: UUID(), ownerPath: "Voice", logger: logger)
        return MicrophoneRecorder(
            configuration: AudioRecorderConfiguration(identifier: "microphone", saveAudioFile: saveAudioFile),
            output: output,
            // test_cap replays its file as fast as it is read (TESTING.md): not a device that keeps
            // time, so these tests of the files' contents record it with the pacing check off.
            settings: MicrophoneSettings(device: device, maximumDuration: duration, requiresPacing: false))
    }

    private func collect(_ events: AsyncStream<AsyncActionEvent>) async -> [AsyncActionEvent] {
        var all: [AsyncActionEvent] = []
        for await event in events { all.append(event) }
        return all
    }

    @Test("The WAV holds the captured samples byte for byte and the levels match independent dBFS")
    func recordsExactWAVAndLevels() async throws {
        let directory = AudioTestEnvironment.scratch("mic-exact")
        let input = directory.appendingPathComponent("in.raw")
        try Data(TestSignals.bytes(Self.signal)).write(to: input)
        let recorder = makeRecorder(in: directory, device: "test_cap:FILE=\(input.path)", saveAudioFile: true, duration: 2.5)
        async let events = collect(recorder.events)

        try await recorder.requestPermission()
        #expect(await recorder.status == .permissionGranted)
        try await recorder.start(stepPath: "Voice/record")
        await recorder.waitUntilCaptured()
        let results = try await recorder.stop()
        #expect(await recorder.status == .finished)

        // Status moved forward only, through the documented lifecycle.
        let statuses = await events.compactMap(\.status)
        #expect(statuses == [.requestingPermission, .permissionGranted, .starting, .running, .waitingToStop, .processingResults, .stopping, .finished])

        // Two files: one collection named after the recorder, as MobilePassiveData returns it.
        #expect(results.count == 1)
        let collection = try #require(results.first as? CollectionResult)
        #expect(collection.identifier == "microphone")
        let files = collection.children.compactMap { $0.result as? FileResult }
        #expect(files.map(\.identifier) == ["microphone_levels", "microphone"])
        #expect(Set(files.map(\.relativePath)) == ["microphone.wav", "microphone_levels.json"])
        #expect(files.first { $0.relativePath == "microphone.wav" }?.contentType == "audio/wav")
        #expect(files.allSatisfy { $0.startUptime != nil })

        let wav = [UInt8](try Data(contentsOf: directory.appendingPathComponent("microphone.wav")))
        let expectedData = TestSignals.bytes(Array(Self.signal.prefix(40_000)))
        #expect(wav.count == 44 + expectedData.count)
        #expect(Array(wav[44...]) == expectedData)
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8))
        let dataSize: Int = wav[40..<44].reversed().reduce(0) { ($0 << 8) | Int($1) }
        #expect(dataSize == expectedData.count)

        let levels = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.appendingPathComponent("microphone_levels.json"))) as? [[String: Any]])
        #expect(levels.count == 3)
        let windows = [0..<16_000, 16_000..<32_000, 32_000..<40_000]
        let startUptime = try #require(files.first?.startUptime)
        let keys: Set<String> = ["uptime", "timestamp", "stepPath", "timeInterval", "average", "peak", "unit"]
        for (index, record) in levels.enumerated() {
            #expect(Set(record.keys) == keys)
            let expected = TestSignals.expectedLevels(Self.signal[windows[index]])
            let average = record["average"] as? Double ?? 0
            let peak = record["peak"] as? Double ?? 0
            let timestamp = record["timestamp"] as? Double ?? 0
            let uptime = record["uptime"] as? Double ?? 0
            let interval = record["timeInterval"] as? Double ?? 0
            let end = Double(windows[index].upperBound) / Double(Self.rate)
            let length = Double(windows[index].count) / Double(Self.rate)
            #expect(abs(average - expected.average) < 0.0002)
            #expect(abs(peak - expected.peak) < 0.0002)
            #expect(abs(timestamp - end) < 0.000_002)
            #expect(abs(uptime - (startUptime + end)) < 0.000_002)
            #expect(abs(interval - length) < 0.000_002)
            #expect(record["unit"] as? String == "dbFS")
            #expect(record["stepPath"] as? String == "Voice/record")
        }
        // Each levels record was also published as a progress event for a live meter.
        let meter = await events.compactMap { event -> (Double, Double)? in
            if case .progress(.audioLevel(let average, let peak)) = event.kind { return (average, peak) }
            return nil
        }
        #expect(meter.count == levels.count)
        for (published, record) in zip(meter, levels) {
            #expect(abs(published.0 - (record["average"] as? Double ?? .nan)) < 0.0001)
            #expect(abs(published.1 - (record["peak"] as? Double ?? .nan)) < 0.0001)
        }
        // The recording lines up with other recorders on CLOCK_BOOTTIME.
        #expect(abs(startUptime - RecordingClock.uptime()) < 60)
    }

    @Test("Without saveAudioFile the WAV is deleted once the levels are written")
    func deletesAudioByDefault() async throws {
        let directory = AudioTestEnvironment.scratch("mic-nosave")
        let input = directory.appendingPathComponent("in.raw")
        try Data(TestSignals.bytes(Self.signal)).write(to: input)
        let recorder = makeRecorder(in: directory, device: "test_cap:FILE=\(input.path)", saveAudioFile: false, duration: 1)
        try await recorder.requestPermission()
        try await recorder.start(stepPath: "Voice/record")
        await recorder.waitUntilCaptured()
        let results = try await recorder.stop()
        #expect(results.compactMap { ($0 as? FileResult)?.relativePath } == ["microphone_levels.json"])
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("microphone.wav").path))
        let levels = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("microphone_levels.json"))) as? [Any]
        #expect(levels?.count == 1)
    }

    @Test("A capture device that cannot be opened denies permission and fails the controller")
    func missingDeviceFails() async throws {
        let directory = AudioTestEnvironment.scratch("mic-missing")
        let recorder = makeRecorder(in: directory, device: "no_such_capture_pcm", saveAudioFile: true, duration: 1)
        async let events = collect(recorder.events)
        await #expect(throws: AsyncActionError.self) { try await recorder.requestPermission() }
        #expect(await recorder.status == .failed)
        let failure = await events.compactMap { event -> ErrorResult? in
            if case .failed(let result) = event.kind { return result }
            return nil
        }.first
        #expect(failure?.identifier == "microphone_error")
        #expect(failure?.errorCode == AsyncActionError.Code.permissionDenied.rawValue)
        #expect(failure?.errorDescription.contains("no_such_capture_pcm") == true)
        await #expect(throws: AsyncActionError.self) { try await recorder.start(stepPath: "x") }
    }

    @Test("Cancel stops the recording and removes its files")
    func cancelRemovesFiles() async throws {
        let directory = AudioTestEnvironment.scratch("mic-cancel")
        let input = directory.appendingPathComponent("in.raw")
        try Data(TestSignals.bytes(Self.signal)).write(to: input)
        let recorder = makeRecorder(in: directory, device: "test_cap:FILE=\(input.path)", saveAudioFile: true, duration: nil)
        try await recorder.requestPermission()
        try await recorder.start(stepPath: "Voice/record")
        await recorder.moveTo(stepPath: "Voice/next")
        await recorder.cancel()
        #expect(await recorder.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("microphone.wav").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("microphone_levels.json").path))
        #expect(try await recorder.stop().isEmpty)
    }
}
