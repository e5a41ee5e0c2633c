import Foundation
import Logging
import Testing
import Upload

/// S3Client's failures that need no server: they are sorted as the queue expects.
@Suite("S3Client")
struct S3ClientTests {
    @Test("A refused connection is a transient failure with libcurl's reason and the URL without its query")
    func refused() async throws {
        // Port 1 on loopback: nothing listens there on a test machine, so connect is refused.
        let location = try #require(S3Location(endpoint: "http://127.0.0.1:1", bucket: "b", region: "us-east-1", pathStyle: true))
        let client = S3Client(location: location, credentials: S3Credentials(accessKeyID: "AK", secretAccessKey: "SK"))
        await #expect {
            _ = try await client.createMultipartUpload(key: "a/b.zip")
        } throws: { error in
            guard let failure = error as? UploadFailure else { return false }
            return failure.kind == .transient && failure.code == "curl 7" && failure.message.contains("POST http://127.0.0.1:1/b/a/b.zip:")
                && !failure.message.contains("?")  // the query never: docs/upload.md, "Secrets"
        }
    }

    @Test("An archive that cannot be read is held with its path")
    func unreadableArchive() async throws {
        let location = try #require(S3Location(endpoint: "http://127.0.0.1:1", bucket: "b", region: "us-east-1", pathStyle: true))
        let client = S3Client(location: location, credentials: S3Credentials(accessKeyID: "AK", secretAccessKey: "SK"))
        let uploader = ArchiveUploader(target: .s3(client), keyTemplate: try ObjectKeyTemplate(ObjectKeyTemplate.defaultTemplate), study: "s", device: "d",
                                       directories: UploadDirectories(dataDirectory: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")),
                                       logger: .init(label: "S3ClientTests"))
        let entry = OutboxEntry(taskRunUUID: UUID(), taskIdentifier: "T", archive: "runs/x/x.zip", size: 1, finishReason: "completed", endDate: "2026-11-25T00:00:00Z")
        await #expect {
            _ = try await uploader.upload(entry)
        } throws: { error in
            guard let failure = error as? UploadFailure else { return false }
            return failure.kind == .held && failure.code == "ArchiveUnreadable" && failure.message.contains("runs/x/x.zip")
        }
    }
}
