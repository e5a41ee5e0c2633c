import Foundation
import Testing
import TestSupport

/// What cannot work is refused at start: exit 1 and a sentence naming the key or the path.
@Suite("activetaskd: refused at start")
struct StartErrorTests {
    @Test("A bad configuration value: exit 1 naming its key path and what is allowed")
    func badConfigurationValue() async throws {
        let fixture = try await DaemonFixture("badconfig")
        let config = try fixture.write(task: #"{"voice": {"rate": 1000}, "syncInterval": 0.001}"#, name: "config")
        let daemon = try fixture.spawn(fixture.arguments() + ["--config", config])
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(1))
        let output = daemon.output
        #expect(output.contains("voice.rate:") && output.contains("80 and 450"), "\(output)")
        #expect(output.contains("syncInterval:"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: fixture.socket))
    }

    @Test("A bad option value: exit 1 naming the option's key")
    func badOption() async throws {
        let fixture = try await DaemonFixture("badoption")
        let daemon = try fixture.spawn(fixture.arguments() + ["--voice-rate", "5"])
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(1))
        #expect(daemon.output.contains("voice.rate:"), "\(daemon.output)")
    }

    @Test("A data directory that cannot be written: exit 1 naming the path")
    func unwritableDataDirectory() async throws {
        let fixture = try await DaemonFixture("baddata")
        // A regular file where the data directory should be: even root cannot create runs/ in it.
        let blocked = try fixture.write(task: "{}", name: "not-a-directory")
        let arguments = fixture.arguments().map { $0 == fixture.dataDirectory.path ? blocked : $0 }
        let daemon = try fixture.spawn(arguments)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(1))
        #expect(daemon.output.contains(blocked), "\(daemon.output)")
        #expect(daemon.output.contains("data directory"), "\(daemon.output)")
        #expect(!FileManager.default.fileExists(atPath: fixture.socket))
    }
}
