import Foundation
import Glibc
import TestSupport
import Testing
import Upload

/// CMS encryption to the study's certificate (docs/upload.md, "Encryption"): the object read
/// back from moto decrypts with the `openssl` command line and the study's key to the archive,
/// byte for byte, for an RSA and an EC recipient; a certificate that cannot be used holds the run.
extension UploadAgainstS3Tests {
    /// The `openssl` command line, or a failure with its error output.
    func openssl(_ arguments: [String]) async throws {
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments)
        guard output.status == 0 else { throw MotoError("openssl \(arguments.joined(separator: " ")) failed: \(output.standardError)") }
    }

    /// A self-signed study certificate and its key, made by `openssl req` (`rsa:2048` or `ec`
    /// on P-256).
    func studyCertificate(_ kind: String) async throws -> (certificate: String, key: String) {
        let certificate = scratch.url.appendingPathComponent("study-\(kind).pem").path
        let key = scratch.url.appendingPathComponent("study-\(kind).key").path
        let algorithm = kind == "ec" ? ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"] : ["-newkey", "rsa:2048"]
        try await openssl(["req", "-x509"] + algorithm + ["-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=study-\(kind)"])
        return (certificate, key)
    }

    /// `openssl cms -decrypt` of the object's bytes with the study's key.
    func decrypt(_ object: URL, certificate: String, key: String) async throws -> Data {
        let output = object.appendingPathExtension("zip")
        try await openssl(["cms", "-decrypt", "-binary", "-inform", "DER", "-in", object.path, "-recip", certificate, "-inkey", key, "-out", output.path])
        return try Data(contentsOf: output)
    }

    func encryptedCopy(_ entry: OutboxEntry) -> URL {
        dataDirectory.appendingPathComponent("uploads/\(entry.taskRunUUID.uuidString).zip.p7m")
    }

    @Test("An archive encrypted to an RSA certificate arrives as CMS that openssl cms -decrypt turns back into the archive")
    func encryptedRSA() async throws {
        let study = try await studyCertificate("rsa")
        let run = try finishedRun(size: 300_001, seed: 21)
        let pid = try startUploader(secret: moto.secretAccessKey, configuration: ["encryption": ["certificate": study.certificate]], log: "rsa.log")
        defer { stopUploader(pid) }
        #expect(await waitUntil(60) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("rsa.log"))")
        let object = try await moto.object(key(run.entry) + ".p7m", scratch: scratch.url)
        #expect(object.data != run.bytes)
        #expect(object.contentType == "application/pkcs7-mime")
        #expect(try await decrypt(object.file, certificate: study.certificate, key: study.key) == run.bytes)
        #expect(try await moto.listing(prefix: "pd-study/").keys == [key(run.entry) + ".p7m"])
        let stored = try JSONDecoder().decode(UploadReceipt.self, from: Data(contentsOf: receipt(run.entry)))
        #expect(stored.key == key(run.entry) + ".p7m")
        #expect(stored.size == Int64(object.data.count))
        #expect(!FileManager.default.fileExists(atPath: encryptedCopy(run.entry).path), "the encrypted copy is removed once uploaded")
    }

    @Test("An archive encrypted to an EC (P-256) certificate goes as a multipart upload and decrypts to the archive")
    func encryptedECMultipart() async throws {
        let study = try await studyCertificate("ec")
        let run = try finishedRun(size: 2 * Self.partSize + 54_321, seed: 22)
        let pid = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"],
                                    configuration: ["encryption": ["certificate": study.certificate]], log: "ec.log")
        defer { stopUploader(pid) }
        #expect(await waitUntil(90) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("ec.log"))")
        let object = try await moto.object(key(run.entry) + ".p7m", scratch: scratch.url)
        #expect(object.etag.hasSuffix("-3\""), "a multipart ETag of 3 parts, not \(object.etag)")
        #expect(try await decrypt(object.file, certificate: study.certificate, key: study.key) == run.bytes)
        #expect(try await moto.listing(prefix: "pd-study/").uploads.isEmpty)
    }

    @Test("A certificate file that is not a certificate holds the run with OpenSSL's reason and uploads nothing")
    func unusableCertificate() async throws {
        let study = try await studyCertificate("rsa")
        // The key where the certificate belongs: a common mistake.
        let run = try finishedRun(size: 10_000, seed: 23)
        let pid = try startUploader(secret: moto.secretAccessKey, configuration: ["encryption": ["certificate": study.key]], log: "badcert.log")
        defer { stopUploader(pid) }
        #expect(await waitUntil(60) { log("badcert.log").contains("CertificateUnusable") }, "the log:\n\(log("badcert.log"))")
        let text = log("badcert.log")
        #expect(text.contains("The upload is held"))
        #expect(text.contains("no start line") || text.contains("PEM"), "OpenSSL's own reason is in the log:\n\(text)")
        #expect(text.contains("encryption.certificate"))
        #expect(!FileManager.default.fileExists(atPath: receipt(run.entry).path))
        #expect(try await moto.listing(prefix: "pd-study/").keys.isEmpty)
    }

    /// An RSA study certificate, a run of three parts and a bit, and its encrypted multipart upload
    /// killed (SIGKILL) once its progress records a part; the uploader configuration it used.
    func encryptedUploadKilledAfterFirstPart(seed: UInt64, log name: String) async throws
        -> (study: (certificate: String, key: String), run: (entry: OutboxEntry, bytes: Data), encryption: [String: Any]) {
        let study = try await studyCertificate("rsa")
        let run = try finishedRun(size: 3 * Self.partSize + 2_000, seed: seed)
        let progress = dataDirectory.appendingPathComponent("uploads/\(run.entry.taskRunUUID.uuidString).multipart.json")
        let encryption: [String: Any] = ["encryption": ["certificate": study.certificate]]
        let partsSaved = try await killAfterFirstPart(progress: progress, configuration: encryption, log: name)
        #expect(partsSaved, "no part was recorded; the log:\n\(log(name))")
        return (study, run, encryption)
    }

    @Test("kill -9 in the middle of an encrypted multipart upload: the restart resumes with the same encrypted copy, and the object decrypts to the archive")
    func encryptedResumeAfterKill() async throws {
        let (study, run, encryption) = try await encryptedUploadKilledAfterFirstPart(seed: 24, log: "encrypted-first.log")
        let copy = try Data(contentsOf: encryptedCopy(run.entry))
        #expect(!FileManager.default.fileExists(atPath: receipt(run.entry).path))

        let second = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"],
                                       configuration: encryption, log: "encrypted-second.log")
        defer { stopUploader(second) }
        #expect(await waitUntil(90) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("encrypted-second.log"))")
        #expect(log("encrypted-second.log").contains("Resuming a multipart upload."))
        let object = try await moto.object(key(run.entry) + ".p7m", scratch: scratch.url)
        #expect(object.data == copy, "the object is the copy made before the kill, not a second encryption")
        #expect(try await decrypt(object.file, certificate: study.certificate, key: study.key) == run.bytes)
        let listing = try await moto.listing(prefix: "pd-study/")
        #expect(listing.keys == [key(run.entry) + ".p7m"])
        #expect(listing.uploads.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: encryptedCopy(run.entry).path))
    }
}
