import ALSA
import AsyncActions
import Audio
import Foundation
import Glibc
import RecorderConformance
import TestSupport
import TaskModel
import Testing

/// The microphone recorder through the async-action conformance suite on ALSA `file` PCMs:
/// the infile is a signal (healthy), a FIFO nobody writes (opening hangs) or a FIFO whose writer
/// goes quiet (a read hangs at stop); a device failing while recording is a PulseAudio server's
/// monitor, killed once the recording runs (needs pulseaudio). No real ALSA device
/// fails exactly when it is stopped, so that check is left to the motion fixture and the
/// lifecycle's own tests.
@Suite("Conformance: microphone recorder on a file PCM")
struct MicrophoneConformanceTests {
    static let signal: [UInt8] = TestSignals.bytes(TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 2, rate: 16_000))

    static let fixture = ConformanceFixture(
        name: "microphone-file", scenarios: AudioTestEnvironment.hasPulse
            ? [.healthy, .failsPermission, .failsWhileRecording, .hangsOnOpen, .hangsOnStop]
            : [.healthy, .failsPermission, .hangsOnOpen, .hangsOnStop],
        fileNames: { ["\($0).wav", "\($0)_levels.json"] }
    ) { scenario, output, deletePrevious in
        let configuration = AudioRecorderConfiguration(identifier: "recorder", saveAudioFile: true, shouldDeletePrevious: deletePrevious)
        let scratch = AudioTestEnvironment.scratch("conformance-input")
        func recorder(device: String, duration: Double? = 1) -> MicrophoneRecorder {
            MicrophoneRecorder(
                configuration: configuration, output: output,
                settings: MicrophoneSettings(device: device, maximumDuration: duration, openDeadline: .seconds(1), stopDeadline: .seconds(1)))
        }
        switch scenario {
        case .healthy, .failsOnStop:
            let input = scratch.appendingPathComponent("in.raw")
            try Data(signal).write(to: input)
            return .init(recorder(device: "test_cap:FILE=\(input.path)"))
        case .failsPermission:
            return .init(recorder(device: "no_such_capture_pcm"))
        case .failsWhileRecording:
            // Started, killed and reaped on threads of their own, never on the concurrency pool.
            let server = try await onOwnThread { try PulseServer.start(.conformance, sharedMemory: false) }
            return .init(
                recorder(device: "test_pulse_conformance_mic", duration: nil),
                afterStart: { _ = try? await onOwnThread { server.crash() } },
                release: { _ = try? await onOwnThread { server.stop() } })
        case .hangsOnOpen:
            let fifo = try FIFO(in: scratch)
            // Opening the infile for reading waits for a writer that only `release` brings.
            return .init(recorder(device: "test_cap:FILE=\(fifo.path)"), release: { fifo.openWriterAndClose() })
        case .hangsOnStop:
            let fifo = try FIFO(in: scratch)
            let writer = fifo.holdWriterOpen(writing: Array(signal.prefix(3_200)))
            // The writer stays open and quiet: the capture thread blocks in read.
            return .init(recorder(device: "test_cap:FILE=\(fifo.path)", duration: nil), release: { close(writer) })
        }
    }

    @Test(arguments: AsyncActionConformance.Check.allCases)
    func conformance(_ check: AsyncActionConformance.Check) async throws {
        try await AsyncActionConformance.run(check, on: Self.fixture)
    }
}

/// A named pipe as a capture infile.
struct FIFO: Sendable {
    let path: String

    init(in directory: URL) throws {
        path = directory.appendingPathComponent("fifo-\(UUID().uuidString.prefix(8))").path
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    /// Opens the write end (without waiting for a reader), writes `bytes` and keeps it open;
    /// returns the descriptor to close.
    func holdWriterOpen(writing bytes: [UInt8]) -> Int32 {
        // O_RDWR never blocks on a FIFO, and keeps a writer present.
        let fd = open(path, O_RDWR)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        return fd
    }

    /// Lets a reader blocked in open() go on: a writer comes and leaves.
    func openWriterAndClose() {
        let fd = open(path, O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
    }
}
