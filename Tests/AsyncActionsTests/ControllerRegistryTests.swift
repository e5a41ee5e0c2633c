import Foundation
import Logging
import Synchronization
import TaskModel
import Testing

@testable import AsyncActions

/// The registry and the unsupported controller, and the publisher's stamps.
@Suite("Async action controller registry")
struct ControllerRegistryTests {
    private func output() -> RecorderOutput {
        RecorderOutput(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString)"),
            baseName: "x", taskRunUUID: UUID(), ownerPath: "Task", logger: Logger(label: "test"))
    }

    private func collect(_ events: AsyncStream<AsyncActionEvent>) async -> [AsyncActionEvent] {
        var all: [AsyncActionEvent] = []
        for await event in events { all.append(event) }
        return all
    }

    @Test("A type nothing supports gets a controller whose permission fails with unsupported and one error result")
    func unsupported() async throws {
        let registry = AsyncActionControllerRegistry()
        let configuration = DistanceRecorderConfiguration(identifier: "distance")
        let controller = registry.makeController(for: configuration, output: output())
        async let events = collect(controller.events)
        await #expect {
            try await controller.requestPermission()
        } throws: { error in
            (error as? AsyncActionError)?.code == .unsupported
        }
        #expect(await controller.status == .failed)
        let results = try await controller.stop()
        let error = try #require(results.first as? ErrorResult)
        #expect(results.count == 1)
        #expect(error.identifier == "distance_error")
        #expect(error.errorCode == AsyncActionError.Code.unsupported.rawValue)
        #expect(error.errorDescription.contains("distance") && error.errorDescription.contains("not supported"))
        let all = await events
        #expect(all.map(\.sequence) == Array(1...UInt64(all.count)))
        #expect(all.allSatisfy { $0.identifier == "distance" })
        #expect(all.compactMap(\.status) == [.requestingPermission, .failed])
        let failures = all.compactMap { event -> ErrorResult? in
            if case .failed(let result) = event.kind { return result }
            return nil
        }
        #expect(failures == [error])
        // The failure comes before the status that says so.
        #expect(all.firstIndex { if case .failed = $0.kind { true } else { false } } == all.count - 2)
        // Cancel after the failure is harmless.
        await controller.cancel()
        #expect(await controller.status == .failed)
    }

    @Test("A registered factory receives the configuration and output and keeps its own settings; others stay unsupported")
    func registeredFactory() async throws {
        var registry = AsyncActionControllerRegistry()
        let seen = Mutex<[String]>([])
        let captureDevice = "hw:1,0"
        registry.register(.microphone, as: AudioRecorderConfiguration.self) { configuration, output in
            seen.withLock { $0.append("\(configuration.identifier) \(output.baseName) \(captureDevice)") }
            return UnsupportedAsyncActionController(configuration: configuration, reason: "made by the test factory")
        }
        #expect(registry.supports(.microphone))
        #expect(!registry.supports(.motion))
        let made = registry.makeController(for: AudioRecorderConfiguration(identifier: "mic"), output: output())
        #expect(seen.withLock { $0 } == ["mic x hw:1,0"])
        await #expect(throws: AsyncActionError.self) { try await made.requestPermission() }
        let failure = try #require(try await made.stop().first as? ErrorResult)
        #expect(failure.errorDescription == "made by the test factory")
        // A configuration of the type but another Swift type is refused with a clear message.
        let generic = GenericAsyncActionConfiguration(identifier: "odd", type: .microphone)
        let refused = registry.makeController(for: generic, output: output())
        await #expect(throws: AsyncActionError.self) { try await refused.requestPermission() }
        let message = try #require(try await refused.stop().first as? ErrorResult).errorDescription
        #expect(message.contains("AudioRecorderConfiguration"))
        #expect(seen.withLock { $0.count } == 1)
    }

    @Test("The publisher stamps identifier, uptime and a gap-free sequence, and stops after a final status")
    func publisherStamps() async {
        let publisher = AsyncActionStatusPublisher(identifier: "m")
        publisher.move(to: .requestingPermission)
        publisher.progress(.motion(samplesWritten: 10, achievedRate: 99.5))
        publisher.warn("gap")
        #expect(!publisher.move(to: .idle))
        publisher.move(to: .cancelled)
        publisher.warn("after the end")
        #expect(!publisher.move(to: .failed))
        let all = await collect(publisher.events)
        #expect(all.map(\.sequence) == [1, 2, 3, 4])
        #expect(all.allSatisfy { $0.identifier == "m" })
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.uptime <= $1.uptime })
        #expect(all.compactMap(\.status) == [.requestingPermission, .cancelled])
        guard case .progress(.motion(10, 99.5)) = all[1].kind else {
            Issue.record("expected the progress event second")
            return
        }
    }
}
