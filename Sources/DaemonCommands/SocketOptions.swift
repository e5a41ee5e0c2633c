public import ArgumentParser
import CommandOutput
public import ControlClient
import Foundation

/// `--socket`: where activetaskd listens (else `ACTIVETASK_SOCKET`, else /run/activetask/control.sock).
public struct SocketOptions: ParsableArguments {
    static let defaultPath = "/run/activetask/control.sock"

    @Option(name: .customLong("socket"), help: "The daemon's control socket (env ACTIVETASK_SOCKET; default \(SocketOptions.defaultPath)).")
    var socket: String?

    public init() {}

    /// The socket to connect to.
    public var path: String {
        socket ?? ProcessInfo.processInfo.environment["ACTIVETASK_SOCKET"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultPath
    }

    /// `--socket P SUBCOMMAND …` → `SUBCOMMAND --socket P …`; other arguments are left as they are.
    public static func movingLeadingSocketOption(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first, first == "--socket" || first.hasPrefix("--socket=") {
            leading.append(first)
            rest = rest.dropFirst()
            if first == "--socket", let value = rest.first {
                leading.append(value)
                rest = rest.dropFirst()
            }
        }
        guard !leading.isEmpty, let subcommand = rest.first else { return arguments }
        return [subcommand] + leading + rest.dropFirst()
    }

    /// Runs `body` on a connection to the daemon; a failure is printed as one sentence and exits 1.
    public func withClient<T: Sendable>(_ body: @Sendable (ControlClient) async throws -> T) async throws -> T {
        do {
            return try await ControlClient.withConnection(socketPath: path, body)
        } catch let error as ControlClientError {
            Console.standardError("activetaskctl: \(error)")
            throw ExitCode.failure
        }
    }
}
