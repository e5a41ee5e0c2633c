/// How far a finished run's archive is on its way to the study's storage (docs/protocol.md,
/// "Uploads"; docs/upload.md).
public enum RunUploadState: String, Sendable, Hashable, Codable, CaseIterable {
    /// In the outbox; activetask-upload has not reported it yet.
    case queued
    /// Waiting for its turn, or for `nextTry` after a failure that is retried.
    case waiting
    case uploading
    /// Stopped by a failure that needs a person (`lastError`), until `nextTry` or a reload.
    case held
    /// The storage holds the archive (activetask-upload's receipt, matching the run's archive).
    case uploaded
    /// activetask-upload's receipt does not confirm the run's archive (another size or SHA-256,
    /// or unreadable): `lastError` says why; the daemon keeps the run (docs/protocol.md, "Uploads").
    case receiptMismatch
}

extension RunUploadState: ControlSchemaDescribing {
    public static var schema: JSONSchema { .enumeration(Self.self) }
}
