import Foundation
import TestSupport
import Testing
import Upload

@Suite("UploadSettings")
struct UploadSettingsTests {
    @Test("Key paths become ACTIVETASK_UPLOAD_* variables and dash-case options", arguments: [
        ("s3.accessKeyID", "ACTIVETASK_UPLOAD_S3_ACCESS_KEY_ID", "s3-access-key-id"),
        ("multipartThreshold", "ACTIVETASK_UPLOAD_MULTIPART_THRESHOLD", "multipart-threshold"),
        ("s3.pathStyle", "ACTIVETASK_UPLOAD_S3_PATH_STYLE", "s3-path-style"),
        ("dataDirectory", "ACTIVETASK_UPLOAD_DATA_DIRECTORY", "data-directory"),
        ("stallSeconds", "ACTIVETASK_UPLOAD_STALL_SECONDS", "stall-seconds"),
        ("partsInParallel", "ACTIVETASK_UPLOAD_PARTS_IN_PARALLEL", "parts-in-parallel"),
        ("metricsDirectory", "ACTIVETASK_UPLOAD_METRICS_DIRECTORY", "metrics-directory"),
    ])
    func names(_ key: String, _ variable: String, _ option: String) {
        #expect(UploadSettings.environmentName(key) == variable)
        #expect(UploadSettings.optionName(key) == option)
    }

    @Test("Options beat variables, variables beat the file; the secret comes from the systemd credential")
    func precedence() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.write("upload.json", #"{"study": "s", "s3": {"endpoint": "https://s3.example.org", "bucket": "from-file", "accessKeyID": "AK", "pathStyle": true}, "multipartThreshold": 100}"#)
        try scratch.write("s3-secret-access-key", "secret\n")
        let loader = UploadSettingsLoader(
            file: file,
            environment: ["ACTIVETASK_UPLOAD_S3_BUCKET": "from-variable", "ACTIVETASK_UPLOAD_PARALLEL": "3", "CREDENTIALS_DIRECTORY": scratch.url.path],
            arguments: ["--parallel", "2", "--s3-region=eu-central-1", "--stall-seconds", "7", "--parts-in-parallel", "6"])
        let settings = try loader.load()
        #expect(settings.s3Bucket == "from-variable")
        #expect(settings.parallel == 2)
        #expect(settings.s3Region == "eu-central-1")
        #expect(settings.s3PathStyle)
        #expect(settings.multipartThreshold == 100)
        #expect(settings.stallSeconds == 7)
        #expect(UploadSettings().stallSeconds == 60)
        #expect(settings.partsInParallel == 6)
        #expect(UploadSettings().partsInParallel == 4)
        #expect(try loader.secretAccessKey(for: settings) == "secret")
    }

    @Test("metricsDirectory: Debian's textfile directory by default, an absolute path or empty (none); a relative one is refused (docs/fleet.md)", arguments: [
        ([String](), "/var/lib/prometheus/node-exporter" as String?),
        (["--metrics-directory", "/srv/textfile"], "/srv/textfile"),
        (["--metrics-directory="], ""),
        (["--metrics-directory", "textfile"], nil),
    ])
    func metricsDirectory(arguments: [String], expected: String?) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.write("upload.json", #"{"s3": {"endpoint": "https://s3.example.org", "bucket": "b", "accessKeyID": "AK"}}"#)
        let loader = UploadSettingsLoader(file: file, environment: [:], arguments: arguments)
        if let expected {
            #expect(try loader.load().metricsDirectory == expected)
        } else {
            #expect { try loader.load() } throws: { "\($0)".contains("metricsDirectory") && "\($0)".contains("absolute path") }
        }
    }

    @Test("Every problem is reported at once, each saying what to fix")
    func problems() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.write("upload.json", #"{"s3": {"endpoint": "s3.example.org", "bucket": "b", "accessKeyID": "AK", "keyTemplate": "{study}.zip"}, "colour": "red", "parallel": 0, "stallSeconds": 0}"#)
        let loader = UploadSettingsLoader(file: file, environment: [:], arguments: ["--bogus", "1"])
        #expect {
            try loader.load()
        } throws: { error in
            let text = "\(error)"
            return text.contains("s3.endpoint \"s3.example.org\"") && text.contains("\"colour\"") && text.contains("parallel")
                && text.contains("{taskRunUUID}") && text.contains("--bogus") && text.contains("stallSeconds") && text.contains("6 problems")
        }
    }

    @Test("The presigned target needs the study server's URL; its token comes from the systemd credential presigned-token")
    func presigned() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.write("upload.json", #"{"target": "presigned", "presigned": {"url": "https://study.example.org/v1/uploads"}, "encryption": {"certificate": "/etc/activetask/study.pem"}}"#)
        try scratch.write("presigned-token", "token\n")
        let loader = UploadSettingsLoader(file: file, environment: ["CREDENTIALS_DIRECTORY": scratch.url.path], arguments: [])
        let settings = try loader.load()
        #expect(settings.presignedURL == "https://study.example.org/v1/uploads")
        #expect(settings.encryptionCertificate == "/etc/activetask/study.pem")
        #expect(try loader.presignedToken(for: settings) == "token")

        let missing = UploadSettingsLoader(file: nil, environment: [:], arguments: ["--target", "presigned", "--presigned-url", "study.example.org"])
        #expect {
            try missing.load()
        } throws: { error in
            "\(error)".contains("presigned.url \"study.example.org\" is not an http:// or https:// URL")
        }
    }

    @Test("The example configuration install.sh ships loads as it is")
    func shippedExample() throws {
        let example = PackagePaths.root.appendingPathComponent("config/upload.json.example").path
        let settings = try UploadSettingsLoader(file: example, environment: [:], arguments: []).load()
        #expect(settings.target == "s3")
        #expect(settings.s3Bucket == "mpower-home-archives")
        #expect(settings.s3Region == "eu-central-1")
    }
}
