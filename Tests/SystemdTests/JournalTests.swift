import Foundation
import Testing
import TestSupport

/// The journal handler against a real systemd-journald, started in a private mount namespace
/// with its own /run and journal directory, read back with `journalctl -o json`.
@Suite("Journal (real journald)")
struct JournalTests {
    static let journald = "/lib/systemd/systemd-journald"

    static var skipReason: String? {
        PrivateNamespace.unavailableReason ?? (FileManager.default.isExecutableFile(atPath: journald) ? nil : "needs systemd-journald")
    }

    @Test("Run fields reach the journal as fields", .enabled(if: skipReason == nil, "\(skipReason ?? "")"))
    func fieldsInJournal() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let script = """
        mount -t tmpfs tmpfs /run
        mkdir -p /run/systemd/journal "$1/journal" /var/log/journal
        mount --bind "$1/journal" /var/log/journal
        \(Self.journald) &
        journald=$!
        trap 'kill $journald' EXIT
        i=0; while [ ! -S /run/systemd/journal/socket ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
        INVOCATION_ID=0123456789abcdef0123456789abcdef "$2" journal
        journalctl --no-pager --sync 2>/dev/null || sleep 0.5
        journalctl --no-pager -o json -t activetask-test
        """
        let output = try await PrivateNamespace.run(script, [scratch.url.path, ChildProcess.helper], environment: ["JOURNAL_STREAM": nil])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n")
        #expect(lines.first == "journal", "the chooser picks the journal under a unit with journald present")
        let entries = lines.dropFirst().compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let entry = try #require(entries.first { $0["MESSAGE"] as? String == "Recorder stalled" }, "\(output.standardOutput)")
        #expect(entry["PRIORITY"] as? String == "4")
        #expect(entry["RUN_UUID"] as? String == "0B7F3C9E-5D1A-4C2B-9E8F-123456789ABC")
        #expect(entry["STEP_PATH"] as? String == "WalkAndBalance/walk/motion")
        #expect(entry["TASK_ID"] as? String == "WalkAndBalance")
        #expect(entry["CONTROLLER"] as? String == "motion")
        #expect(entry["PEER_PID"] as? String == "4242")
        #expect(entry["LOGGER"] as? String == "activetask.session")
        #expect((entry["CODE_FILE"] as? String)?.hasSuffix("main.swift") == true)
        #expect(Int(entry["CODE_LINE"] as? String ?? "") != nil)
        #expect(entry["CODE_FUNC"] as? String != nil)
    }
}
