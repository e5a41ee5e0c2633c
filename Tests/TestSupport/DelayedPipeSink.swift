public import Foundation
import Glibc
import Synchronization

/// A sound device with a known delay, for prompt-timing tests (docs/audio.md, "Testing without
/// hardware"): a PulseAudio server whose only sink, `delayed` (ALSA PCM `test_pulse_delayed`),
/// is PulseAudio's pipe sink writing into a FIFO that this process reads at the sink's own rate.
///
/// The sink keeps the pipe full, so a frame is read ("heard") as long after the sink wrote it as
/// the pipe holds: `delay` seconds (its capacity), less at most one page while the sink is
/// between writes. The sink reports exactly that to its streams (the bytes in the pipe, PulseAudio
/// counts them as latency), so a player that places its clips by the delay its device reports
/// is on time here, and one that assumes the device plays what it is given at once is late by
/// `delay`. What the reader hears is timed by its own clock, not by anything PulseAudio says.
public final class DelayedPipeSink: @unchecked Sendable {
    /// The sink's format: stereo S16 at 65536 Hz, 262144 bytes a second, so that the pipe's
    /// 16 pages (65536 bytes, the Linux default) are 250 ms and one page 15.6 ms.
    public static let rate = 65_536
    public static let channels = 2
    static let bytesPerSecond = Double(rate * channels * 2)

    public let server: PulseServer
    /// Seconds from the sink's write to the read: the pipe's capacity at the sink's byte rate.
    public let delay: Double

    private struct State {
        var isStopped = false
        /// CLOCK_MONOTONIC seconds at which each sound (loud after at least 0.1 s of quiet) was heard.
        var onsets: [Double] = []
        /// CLOCK_MONOTONIC seconds of the last loud frame heard.
        var lastSound: Double?
        var error: String?
    }

    private let state = Mutex(State())
    private let fifo: Int32
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the server and the reader. `capacity` is the pipe's size in bytes (a power of two
    /// of whole pages); the default gives 250 ms. Its ALSA PCM is `pcmDefinition(named:)`
    /// (`test_pulse_delayed` for the default `instance`).
    public static func start(capacity: Int = 65_536, instance: PulseServer.Instance = .delayed) async throws -> DelayedPipeSink {
        let runtime = instance.runtimeDirectory(in: AudioTestEnvironment.directory)
        let path = runtime.appendingPathComponent("delayed.fifo").path
        let server = try await PulseServer.start(
            runtimeDirectory: runtime,
            sink: ["load-module module-pipe-sink file=\(path) sink_name=delayed format=s16le rate=\(rate) channels=\(channels)"])
        // The protocol module (whose socket `start` waits for) loads before the sink makes its FIFO.
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: path), Date() < deadline { usleep(20_000) }
        let fifo = open(path, O_RDONLY | O_CLOEXEC)
        guard fifo >= 0 else {
            server.stop()
            throw DelayedPipeSinkError(message: "Opening \(path) failed: \(String(cString: strerror(errno)))")
        }
        // F_SETPIPE_SZ and F_GETPIPE_SZ (Linux's fcntl.h; Glibc hides them without _GNU_SOURCE).
        _ = fcntl(fifo, 1031, Int32(capacity))
        let size = fcntl(fifo, 1032)
        guard size > 0 else {
            close(fifo)
            server.stop()
            throw DelayedPipeSinkError(message: "The pipe's size could not be read: \(String(cString: strerror(errno)))")
        }
        return DelayedPipeSink(server: server, fifo: fifo, delay: Double(size) / bytesPerSecond)
    }

    private init(server: PulseServer, fifo: Int32, delay: Double) {
        self.server = server
        self.fifo = fifo
        self.delay = delay
        let thread = Thread { [self] in read() }
        thread.name = "delayed-sink"
        thread.start()
    }

    /// An ALSA configuration line defining PCM `name` as this sink.
    public func pcmDefinition(named name: String) -> String {
        let native = server.runtimeDirectory.appendingPathComponent("pulse/native").path
        return "pcm.\(name) { type pulse server \"unix:\(native)\" device \"delayed\" }\n"
    }

    /// CLOCK_MONOTONIC seconds at which each sound so far was heard.
    public var onsets: [Double] { state.withLock { $0.onsets } }
    /// When the last loud frame was heard (CLOCK_MONOTONIC): the end of sounds that follow one
    /// another too closely for `onsets` to tell them apart.
    public var lastSound: Double? { state.withLock { $0.lastSound } }

    /// What went wrong reading the pipe, if anything.
    public var error: String? { state.withLock { $0.error } }

    /// Ends the reader and the server.
    public func stop() {
        let wasStopped = state.withLock { state in
            defer { state.isStopped = true }
            return state.isStopped
        }
        guard !wasStopped else { return }
        // The server first: a sink with no stream left may stop writing, and the reader would
        // wait in its read for ever; the server's end closing ends that read.
        server.stop()
        finished.wait()
        close(fifo)
    }

    deinit { stop() }

    /// Reads 256 frames (3.9 ms) at a time, each when the sink's clock says it is due, and
    /// keeps when each sound began. The pipe is full ahead of the reader, so a read never waits.
    private func read() {
        defer { finished.signal() }
        // A sound card's clock does not wait for the CPU: the reader asks for real-time
        // scheduling so that a busy moment of the process under test (a run's end writing its
        // files) does not delay what it hears. Where it may not, it reads at normal priority.
        var parameters = sched_param(sched_priority: 20)
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        let frames = 256
        var buffer = [Int16](repeating: 0, count: frames * Self.channels)
        let start = MonotonicTime.now()
        var chunks = 0
        var quietFrames = Int.max
        while !state.withLock({ $0.isStopped }) {
            var due = timespec()
            let dueTime = start + Double(chunks * frames) / Double(Self.rate)
            due.tv_sec = Int(dueTime)
            due.tv_nsec = Int((dueTime - Double(Int(dueTime))) * 1e9)
            _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, nil)
            let wanted = buffer.count * 2
            var got = 0
            while got < wanted {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fifo, $0.baseAddress! + got, wanted - got) }
                if count <= 0 {
                    if count < 0, errno == EINTR { continue }
                    state.withLock { $0.error = count == 0 ? "The sink closed its pipe." : String(cString: strerror(errno)) }
                    return
                }
                got += count
            }
            let heard = max(dueTime, MonotonicTime.now())
            var lastLoudFrame: Int?
            for frame in 0..<frames {
                let loudness = max(abs(Int(buffer[frame * 2])), abs(Int(buffer[frame * 2 + 1])))
                if loudness > 2_000 {
                    if quietFrames >= Self.rate / 10 {
                        let onset = heard + Double(frame) / Double(Self.rate)
                        state.withLock { $0.onsets.append(onset) }
                    }
                    quietFrames = 0
                    lastLoudFrame = frame
                } else if loudness < 100, quietFrames < Int.max {
                    quietFrames += 1
                }
            }
            if let lastLoudFrame {
                state.withLock { $0.lastSound = heard + Double(lastLoudFrame + 1) / Double(Self.rate) }
            }
            chunks += 1
        }
    }
}

/// The delayed sink could not be set up.
public struct DelayedPipeSinkError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
