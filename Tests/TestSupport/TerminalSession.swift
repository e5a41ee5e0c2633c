import Foundation
import Glibc

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

    /// `screen(containingAll:within:)` for one text.
    public func screen(containing text: String, within seconds: Double = 20) async throws -> (found: Bool, screen: String) {
        try await screen(containingAll: [text], within: seconds)
    }

    /// Polls the screen (every 100 ms, at most `seconds`) until it shows every one of `texts`;
    /// the last screen either way. Asking for all the lines a screen must have, not one of them,
    /// keeps a capture taken while the program is still drawing from counting as that screen.
    public func screen(containingAll texts: [String], within seconds: Double = 20) async throws -> (found: Bool, screen: String) {
        var last = ""
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            last = try await screen()
            if texts.allSatisfy(last.contains) { return (true, last) }
            try await Task.sleep(for: .milliseconds(100))
        }
        return (false, last)
    }

    /// Ends the session, its server and the program in it.
    public func end() {
        guard let pid = try? ChildSpawn.spawn(
            ["/usr/bin/tmux", "-L", name, "kill-server"], environment: ProcessInfo.processInfo.environment,
            standardOutput: "/dev/null", standardError: "/dev/null") else { return }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    /// Runs one tmux command, spawned and reaped here (not with Foundation's `Process`, whose
    /// one-at-a-time reaping a long-lived child of another test can hold up), within 10 s.
    private func tmux(_ arguments: [String], capture: Bool) async throws -> String {
        let name = name
        return try await onOwnThread {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString).out")
            defer { try? FileManager.default.removeItem(at: output) }
            let pid = try ChildSpawn.spawn(
                ["/usr/bin/tmux", "-L", name] + arguments, environment: ProcessInfo.processInfo.environment,
                standardOutput: capture ? output.path : "/dev/null", standardError: "/dev/null")
            let deadline = Date().addingTimeInterval(10)
            var status: Int32 = 0
            while true {
                let result = waitpid(pid, &status, WNOHANG)
                // Reaped, or gone (another reaper took it): either way it has ended.
                if result == pid || result < 0 { break }
                if Date() > deadline {
                    kill(pid, SIGKILL)
                    _ = waitpid(pid, &status, 0)
                    throw TerminalSessionError(command: arguments.first ?? "tmux")
                }
                usleep(10_000)
            }
            return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        }
    }
}

/// A tmux command that did not finish within its time.
public struct TerminalSessionError: Error, CustomStringConvertible {
    public var command: String
    public var description: String { "tmux \(command) did not finish within 10 s." }
}
