import Foundation
import Glibc
import TestSupport
import Testing
import Upload

/// The presigned-URL target (docs/upload.md, "The study server's contract") against a small
/// study server of the tests' own (Support/presign_server.py: boto3's generate_presigned_url in
/// front of a moto server): the object read back equals the archive, complete is called once,
/// expired URLs are replaced, a wrong token is held with its reason.
extension UploadAgainstS3Tests {
    /// The study server and the moto server behind it; `stop` ends both.
    struct StudyServer {
        let moto: MotoServer
        let pid: pid_t
        let port: Int
        let record: URL

        var url: String { "http://127.0.0.1:\(port)/uploads" }

        /// The calls the server recorded, in order.
        func calls() -> [[String: Any]] {
            let text = (try? String(contentsOf: record, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        func calls(_ name: String) -> [[String: Any]] { calls().filter { $0["call"] as? String == name } }

        func stop() {
            kill(pid, SIGKILL)
            _ = ChildSpawn.waitForExit(pid)
            moto.stop()
        }
    }

    static let presignedHelper = PackagePaths.root.appendingPathComponent("Tests/UploadTests/Support/presign_server.py").path

    func startStudyServer(token: String, flags: [String] = []) async throws -> StudyServer {
        // moto checks no signature in this mode: its authenticated mode cannot read presigned URLs.
        let storage = try await MotoServer.start(scratch: scratch.url, enforceAuthentication: false)
        let port = LoopbackPort.free()
        let record = scratch.url.appendingPathComponent("study-server-\(port).jsonl")
        let output = scratch.url.appendingPathComponent("study-server-\(port).log")
        let pid = try ChildSpawn.spawn(
            ["/usr/bin/env", "python3", Self.presignedHelper, "--port", "\(port)", "--moto-port", "\(storage.port)", "--bucket", storage.bucket,
             "--access-key", storage.accessKeyID, "--secret", storage.secretAccessKey, "--token", token, "--record", record.path] + flags,
            environment: ProcessInfo.processInfo.environment, standardOutput: output.path, standardError: nil)
        let server = StudyServer(moto: storage, pid: pid, port: port, record: record)
        do {
            try await onOwnThread { try MotoServer.waitForListener(pid: pid, port: port, name: "the study server", output: output) }
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// Starts activetask-upload with the study server's URL, or `url` (a proxy in front of it),
    /// and `configuration` added (`encryption`).
    func startPresignedUploader(server: StudyServer, url: String? = nil, token: String, configuration extra: [String: Any] = [:],
                                log: String) throws -> pid_t {
        let tokenFile = scratch.url.appendingPathComponent("token-\(UUID().uuidString)")
        try Data("\(token)\n".utf8).write(to: tokenFile)
        let configuration: [String: Any] = ["target": "presigned", "presigned": ["url": url ?? server.url, "tokenFile": tokenFile.path]]
        return try startUploader(secret: "unused", configuration: configuration.merging(extra) { $1 }, log: log)
    }

    @Test("Through the study server: the archive arrives byte for byte, complete is called once, a receipt is written")
    func presigned() async throws {
        let server = try await startStudyServer(token: "device-token")
        defer { server.stop() }
        let run = try finishedRun(size: 400_003, seed: 31)
        let pid = try startPresignedUploader(server: server, token: "device-token", log: "presigned.log")
        defer { stopUploader(pid) }
        #expect(await waitUntil(60) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("presigned.log"))")
        let object = try await server.moto.object(key(run.entry), scratch: scratch.url)
        #expect(object.data == run.bytes)
        let requests = server.calls("request")
        #expect(requests.count == 1)
        #expect(requests.first?["name"] as? String == key(run.entry))
        #expect((requests.first?["contentLength"] as? NSNumber)?.intValue == run.bytes.count)
        #expect(requests.first?["contentType"] as? String == "application/zip")
        let completes = server.calls("complete")
        #expect(completes.count == 1)
        #expect(completes.first?["id"] as? String == requests.first?["id"] as? String)
        let stored = try JSONDecoder().decode(UploadReceipt.self, from: Data(contentsOf: receipt(run.entry)))
        #expect(stored.etag == object.etag)
    }

    @Test("An expired URL (expires in the past, or a 403 from the PUT) is replaced by a new one; complete is called once")
    func presignedExpired() async throws {
        let server = try await startStudyServer(token: "device-token", flags: ["--expire-first"])
        defer { server.stop() }
        let run = try finishedRun(size: 50_000, seed: 32)
        let pid = try startPresignedUploader(server: server, token: "device-token", log: "expired.log")
        #expect(await waitUntil(60) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("expired.log"))")
        stopUploader(pid)
        #expect(server.calls("request").count == 2, "the expired grant was not used")
        #expect(server.calls("complete").count == 1)
        #expect(try await server.moto.object(key(run.entry), scratch: scratch.url).data == run.bytes)

        let refusing = try await startStudyServer(token: "device-token", flags: ["--refuse-first-put"])
        defer { refusing.stop() }
        let second = try finishedRun(size: 50_001, seed: 33)
        let pid2 = try startPresignedUploader(server: refusing, token: "device-token", log: "refused.log")
        defer { stopUploader(pid2) }
        #expect(await waitUntil(60) { FileManager.default.fileExists(atPath: receipt(second.entry).path) }, "no receipt; the log:\n\(log("refused.log"))")
        #expect(refusing.calls("expired-put").count == 1)
        #expect(refusing.calls("request").count == 2)
        #expect(refusing.calls("complete").count == 1)
        #expect(try await refusing.moto.object(key(second.entry), scratch: scratch.url).data == second.bytes)
    }

    @Test("A wrong token is held with the study server's reason and uploads nothing")
    func presignedWrongToken() async throws {
        let server = try await startStudyServer(token: "device-token")
        defer { server.stop() }
        let run = try finishedRun(size: 10_000, seed: 34)
        let pid = try startPresignedUploader(server: server, token: "not-the-token", log: "token.log")
        defer { stopUploader(pid) }
        #expect(await waitUntil(60) { log("token.log").contains("The upload is held") }, "the log:\n\(log("token.log"))")
        let text = log("token.log")
        #expect(text.contains("HTTP 401"))
        #expect(text.contains("The token is not valid."))
        #expect(text.contains("presigned.tokenFile"))
        #expect(!FileManager.default.fileExists(atPath: receipt(run.entry).path))
        #expect(server.calls("complete").isEmpty)
        #expect(try await server.moto.listing(prefix: "pd-study/").keys.isEmpty)
    }
}
