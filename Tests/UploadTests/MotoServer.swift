import Foundation
import Glibc
import TestSupport

/// A moto S3 server on 127.0.0.1 for the tests, with authentication enforced after the setup's
/// first four actions (INITIAL_NO_AUTH_ACTION_COUNT): an IAM user, its key, its policy and the
/// bucket. Objects are read back through boto3 (Support/moto_s3.py).
final class MotoServer: Sendable {
    /// moto_server on the PATH, or nil (the tests then skip with that reason).
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/moto_server"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    static let helper = PackagePaths.root.appendingPathComponent("Tests/UploadTests/Support/moto_s3.py").path

    let port: Int
    let bucket = "study-archives"
    private let pid: pid_t
    let log: URL
    let accessKeyID: String
    let secretAccessKey: String

    /// Starts a server on a thread of its own: the start waits seconds for moto to listen and
    /// runs the setup through Python, which would hold one of the two concurrency threads that
    /// every test running beside this one needs.
    static func start(scratch: URL, enforceAuthentication: Bool = true) async throws -> MotoServer {
        try await onOwnThread { try MotoServer(scratch: scratch, enforceAuthentication: enforceAuthentication) }
    }

    /// `enforceAuthentication` false: every request is accepted unsigned, as moto's presigned URLs
    /// need (its authenticated mode cannot check a query-signed request).
    private init(scratch: URL, enforceAuthentication: Bool) throws {
        guard let executable = Self.executable else { throw MotoError("moto_server is not installed (pip install 'moto[server]' boto3; scripts/setup.sh)") }
        port = LoopbackPort.free()
        log = scratch.appendingPathComponent("moto-\(port).log")
        var environment = ProcessInfo.processInfo.environment
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = enforceAuthentication ? "4" : nil
        pid = try ChildSpawn.spawn([executable, "-H", "127.0.0.1", "-p", "\(port)"], environment: environment,
                                   standardOutput: log.path, standardError: nil)
        try Self.waitForListener(pid: pid, port: port, name: "moto_server", output: log)
        let keys: String
        do { keys = try Self.run(["setup"], port: port, bucket: bucket, credentials: nil) } catch { Self.end(pid); throw error }
        guard let object = try? JSONSerialization.jsonObject(with: Data(keys.utf8)) as? [String: String],
              let id = object["accessKeyID"], let secret = object["secretAccessKey"] else {
            Self.end(pid)
            throw MotoError("setup printed \(keys)")
        }
        accessKeyID = id
        secretAccessKey = secret
    }

    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// SIGKILL: moto_server (werkzeug) does not stop on SIGTERM, and its state is thrown away anyway.
    func stop() { Self.end(pid) }

    private static func end(_ pid: pid_t) {
        kill(pid, SIGKILL)
        _ = ChildSpawn.waitForExit(pid)
    }

    /// The object's bytes, ETag and content type; `file` is where the bytes were written.
    func object(_ key: String, scratch: URL) async throws -> (data: Data, etag: String, contentType: String, file: URL) {
        let file = scratch.appendingPathComponent("object-\(UUID().uuidString)")
        let answer = try await run(["get", "--key", key, "--output", file.path])
        let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
        return (try Data(contentsOf: file), object?["etag"] as? String ?? "", object?["contentType"] as? String ?? "", file)
    }

    /// Every object under `prefix`, written into `directory` (one Python start for all of them):
    /// by key, its ETag and the file holding its bytes.
    func objects(prefix: String, into directory: URL) async throws -> [String: (etag: String, file: URL)] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let answer = try await run(["dump", "--prefix", prefix, "--output", directory.path])
        let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: [String: Any]] ?? [:]
        return object.mapValues { (($0["etag"] as? String) ?? "", URL(fileURLWithPath: ($0["file"] as? String) ?? "")) }
    }

    /// The object's SHA-256 (hex), size and ETag, computed while it streams: for objects too
    /// large to hold twice in the test's memory.
    func digest(_ key: String) async throws -> (sha256: String, size: Int64, etag: String) {
        let answer = try await run(["digest", "--key", key])
        let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
        return ((object?["sha256"] as? String) ?? "", (object?["size"] as? NSNumber)?.int64Value ?? -1, (object?["etag"] as? String) ?? "")
    }

    /// The keys under `prefix` and the keys of unfinished multipart uploads.
    func listing(prefix: String) async throws -> (keys: [String], uploads: [String]) {
        let answer = try await run(["list", "--prefix", prefix])
        let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: [String]]
        return (object?["keys"] ?? [], object?["uploads"] ?? [])
    }

    /// Support/moto_s3.py with `arguments`, as this server's user (its Python start takes a
    /// second: on a thread of its own).
    private func run(_ arguments: [String]) async throws -> String {
        let (port, bucket, credentials) = (port, bucket, (accessKeyID, secretAccessKey))
        return try await onOwnThread { try Self.run(arguments, port: port, bucket: bucket, credentials: credentials) }
    }

    private static func run(_ arguments: [String], port: Int, bucket: String, credentials: (String, String)?) throws -> String {
        var all = arguments + ["--port", "\(port)", "--bucket", bucket]
        if let (id, secret) = credentials { all += ["--access-key", id, "--secret", secret] }
        let output = try CommandRunner.runBlocking(URL(fileURLWithPath: "/usr/bin/env"), ["python3", helper] + all)
        guard output.status == 0 else { throw MotoError("moto_s3.py \(arguments.joined(separator: " ")) failed: \(output.standardError)") }
        return output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How long a helper server may take to listen. Python importing moto takes 2-3 s on an idle
    /// machine, but at the start of the plain pass, with every suite starting at once on two
    /// cores, CI once saw it silent for over 30 s.
    static let listenTimeout = 120.0

    /// Waits until `pid` accepts connections on `port`, for up to `listenTimeout`; throws at once,
    /// with the process's output, if it exits first, and ends it if it never listens.
    static func waitForListener(pid: pid_t, port: Int, name: String, output: URL) throws {
        let deadline = Date().addingTimeInterval(listenTimeout)
        func failure(_ what: String) -> MotoError {
            MotoError("\(name) \(what): \((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
        }
        while !LoopbackPort.accepts(port) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { throw failure("exited (status \(status)) before it listened on port \(port)") }
            guard Date() < deadline else {
                end(pid)
                throw failure("did not listen on port \(port) within \(Int(listenTimeout)) s")
            }
            usleep(50_000)
        }
    }
}
