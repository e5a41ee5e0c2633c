import Glibc
import Logging
import Systemd
import Testing

@Suite("Journal fields")
struct JournalEntryTests {
    @Test("Metadata keys become journal field names", arguments: [
        ("taskRunUUID", "RUN_UUID"),
        ("runUUID", "RUN_UUID"),
        ("stepPath", "STEP_PATH"),
        ("taskIdentifier", "TASK_ID"),
        ("asyncAction", "CONTROLLER"),
        ("controller", "CONTROLLER"),
        ("peerPID", "PEER_PID"),
        ("samplesWritten", "SAMPLES_WRITTEN"),
        ("device.name", "DEVICE_NAME"),
        ("_secret", "SECRET"),
        ("2nd", "META_2ND"),
        ("message", "META_MESSAGE"),
        ("priority", "META_PRIORITY"),
        ("RUN_UUID", "META_RUN_UUID"),
        ("naïve", "NA_VE"),
        ("", "META_"),
        (String(repeating: "a", count: 80), String(repeating: "A", count: 64)),
    ])
    func fieldNames(_ example: (key: String, field: String)) {
        #expect(JournalEntry.fieldName(forMetadataKey: example.key) == example.field)
    }

    @Test("Priorities follow syslog", arguments: [
        (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
    ])
    func priorities(_ example: (level: Logger.Level, priority: Int)) {
        #expect(JournalEntry.priority(of: example.level) == example.priority)
    }

    @Test("An entry has its message, priority, code location, identifier and run fields")
    func entry() {
        let fields = JournalEntry.fields(
            level: .warning, message: "Recorder stalled\nsecond line",
            metadata: [
                "taskRunUUID": "6F1C…", "stepPath": "WalkAndBalance/walk/motion", "taskIdentifier": "WalkAndBalance",
                "asyncAction": "motion", "frequency": .stringConvertible(100), "channels": ["accel_x", "accel_y"],
            ],
            label: "activetask.session", identifier: "activetaskd",
            file: "Session/TaskSession.swift", function: "advance()", line: 42
        )
        #expect(fields == [
            "MESSAGE=Recorder stalled\nsecond line",
            "PRIORITY=4",
            "CODE_FILE=Session/TaskSession.swift",
            "CODE_LINE=42",
            "CODE_FUNC=advance()",
            "SYSLOG_IDENTIFIER=activetaskd",
            "LOGGER=activetask.session",
            #"CHANNELS=["accel_x", "accel_y"]"#,
            "CONTROLLER=motion",
            "FREQUENCY=100",
            "RUN_UUID=6F1C…",
            "STEP_PATH=WalkAndBalance/walk/motion",
            "TASK_ID=WalkAndBalance",
        ])
    }

    @Test("Logs go to stderr when not started by systemd or when the journal is absent")
    func destination() async throws {
        // This machine runs no journald (no /run/systemd/journal/socket): stderr, whatever the variables say.
        let output = try await ChildProcess.run(ChildProcess.helper, ["log-destination"], environment: ["JOURNAL_STREAM": nil, "INVOCATION_ID": nil])
        #expect(output.standardOutput == "standardError\n")
        let fromUnit = try await ChildProcess.run(ChildProcess.helper, ["log-destination"], environment: ["INVOCATION_ID": "0123456789abcdef0123456789abcdef"])
        let journal = access("/run/systemd/journal/socket", W_OK) == 0
        #expect(fromUnit.standardOutput == (journal ? "journal\n" : "standardError\n"))
    }
}
