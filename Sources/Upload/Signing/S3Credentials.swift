/// The device's S3 access key: its ID and its secret (read from a credential file, never from
/// the world-readable configuration).
public struct S3Credentials: Sendable, Hashable {
    public var accessKeyID: String
    public var secretAccessKey: String

    public init(accessKeyID: String, secretAccessKey: String) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
    }
}
