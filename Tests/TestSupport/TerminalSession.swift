public import Foundation

/// A program running in tmux, read and typed at as a person would (TESTING.md, "A terminal front
/// end"). Each session has a tmux server of its own (`-L`), started with its output sent to
/// /dev/null: a server that inherited a pipe would keep the caller's read of that pipe from ever
/// ending.
public struct TerminalSession: Sendable {
    public let name: String

    /// Starts `command` in a detached session of `width` × `height` characters.
    public init(command: String, width: Int = 100, height: Int = 30) async throws {
        name = "activetask-\(UUID().uuidString.prefix(8))"
        _ = try await tmux(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", command], capture: false)
    }

    /// Types `keys` (tmux key names: `Enter`, or text).
    public func send(_ keys: String...) async throws {
        _ = try await tmux(["send-keys", "-t", name] + keys, capture: false)
    }

    /// The screen as it is now.
    public func screen() async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", name], capture: true)
    }

    /// Polls the screen (every 100 ms, at most `seconds`) until it shows `text`; the last screen
    /// either way.
    public func screen(containing text: String, within seconds: Double = 20) async throws -> (found: Bool, screen: String) {
        var last = ""
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            last = try await screen()
            if last.contains(text) { return (true, last) }
            try await Task.sleep(for: .milliseconds(100))
        }
        return (false, last)
    }

    /// Ends the session and its server.
    public func end() {
        _ = try? Process.run(URL(fileURLWithPath: "/usr/bin/tmux"), arguments: ["-L", name, "kill-server"])
    }

    private func tmux(_ arguments: [String], capture: Bool) async throws -> String {
        let name = name
        return try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
            process.arguments = ["-L", name] + arguments
            process.standardInput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let pipe = capture ? Pipe() : nil
            process.standardOutput = pipe ?? FileHandle.nullDevice
            try process.run()
            let data = pipe?.fileHandleForReading.readDataToEndOfFile() ?? Data()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
