/// Where archives go (docs/upload.md, "Configuration", `target`).
public enum UploadTarget: Sendable {
    /// S3-compatible storage with the device's own access key: single or multipart uploads.
    case s3(S3Client)
    /// A study server that hands out presigned URLs: one PUT per archive.
    case presigned(StudyServerClient)
}
