public import Foundation

/// activetask-upload's settings (docs/upload.md, "Configuration"): each from the command line
/// (`--s3-bucket`), an `ACTIVETASK_UPLOAD_*` variable (`ACTIVETASK_UPLOAD_S3_BUCKET`) or the JSON
/// file (`{"s3": {"bucket": …}}`), in that order of precedence.
public struct UploadSettings: Sendable, Hashable {
    public var dataDirectory = "/var/lib/activetask"
    /// `s3` (the device's own access key) or `presigned` (a study server hands out URLs).
    public var target = "s3"
    /// The study's name for the `{study}` of the key template.
    public var study = "study"
    /// This device's name for `{device}`; the host name by default.
    public var device = ProcessInfo.processInfo.hostName
    public var s3Endpoint = ""
    public var s3Region = "us-east-1"
    public var s3Bucket = ""
    public var s3PathStyle = false
    public var s3KeyTemplate = ObjectKeyTemplate.defaultTemplate
    public var s3AccessKeyID = ""
    /// The file holding the secret access key; nil for the systemd credential
    /// `$CREDENTIALS_DIRECTORY/s3-secret-access-key`.
    public var s3SecretAccessKeyFile: String?
    public var caFile: String?
    public var multipartThreshold: Int64 = 8 << 20
    public var partSize: Int64 = 8 << 20
    public var parallel = 1
    /// Parts of one multipart upload sent at once (one at a time when `maxBytesPerSecond` is set,
    /// so that the limit holds for the whole upload).
    public var partsInParallel = 4
    public var maxBytesPerSecond: Int64?
    public var pollSeconds = 5.0
    /// A transfer that moves no byte for this many seconds is abandoned as stalled (and retried).
    public var stallSeconds = 60
    /// The study server's upload URL (`target` `presigned`): requests are POSTed here.
    public var presignedURL: String?
    /// The file holding the study server's bearer token; nil for the systemd credential
    /// `$CREDENTIALS_DIRECTORY/presigned-token`.
    public var presignedTokenFile: String?
    /// The study's X.509 certificate (PEM): archives are encrypted to it as CMS EnvelopedData;
    /// nil to upload them as they are.
    public var encryptionCertificate: String?
    /// Where `activetask-upload.prom` is written for node_exporter's textfile collector
    /// (docs/fleet.md); nothing is written while it does not exist; empty for none.
    public var metricsDirectory = "/var/lib/prometheus/node-exporter"

    public init() {}

    /// Every setting's key path, as the JSON file nests it.
    public static let keys: [String] = [
        "dataDirectory", "target", "study", "device",
        "s3.endpoint", "s3.region", "s3.bucket", "s3.pathStyle", "s3.keyTemplate", "s3.accessKeyID", "s3.secretAccessKeyFile",
        "caFile", "multipartThreshold", "partSize", "parallel", "partsInParallel", "maxBytesPerSecond", "pollSeconds", "stallSeconds",
        "presigned.url", "presigned.tokenFile", "encryption.certificate", "metricsDirectory",
    ]

    /// `s3.accessKeyID` → `ACTIVETASK_UPLOAD_S3_ACCESS_KEY_ID`.
    public static func environmentName(_ key: String) -> String {
        "ACTIVETASK_UPLOAD_" + words(key).joined(separator: "_").uppercased()
    }

    /// `s3.accessKeyID` → `s3-access-key-id` (the option is `--s3-access-key-id`).
    public static func optionName(_ key: String) -> String {
        words(key).joined(separator: "-").lowercased()
    }

    private static func words(_ key: String) -> [String] {
        var words: [String] = []
        for part in key.split(separator: ".") {
            var word = ""
            var previous: Character?
            for character in part {
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                    words.append(word)
                    word = ""
                }
                word.append(character)
                previous = character
            }
            words.append(word)
        }
        return words
    }
}
