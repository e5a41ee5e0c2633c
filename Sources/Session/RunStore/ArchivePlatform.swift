import Foundation
import Glibc

/// The device and software facts `metadata.json` carries (RSDDataArchive's platform keys).
public struct ArchivePlatform: Codable, Sendable, Hashable {
    /// The device and system: `Linux 6.1.0-18-arm64 aarch64`.
    public var deviceInfo: String
    /// The device model; the machine architecture when nothing better is configured.
    public var deviceTypeIdentifier: String
    public var appName: String
    public var appVersion: String
    /// The task runner's version, in SageResearch's `rsdFrameworkVersion` slot.
    public var rsdFrameworkVersion: String

    public init(deviceInfo: String, deviceTypeIdentifier: String, appName: String, appVersion: String, rsdFrameworkVersion: String) {
        self.deviceInfo = deviceInfo
        self.deviceTypeIdentifier = deviceTypeIdentifier
        self.appName = appName
        self.appVersion = appVersion
        self.rsdFrameworkVersion = rsdFrameworkVersion
    }

    /// This machine as `uname` describes it; `deviceTypeIdentifier` names the device model when
    /// the embedder knows it (configuration), else the architecture.
    public static func current(appName: String = "activetaskd", appVersion: String = "0.1.0",
                               deviceTypeIdentifier: String? = nil) -> ArchivePlatform {
        var names = utsname()
        uname(&names)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let machine = field(names.machine)
        return ArchivePlatform(
            deviceInfo: "\(field(names.sysname)) \(field(names.release)) \(machine)",
            deviceTypeIdentifier: deviceTypeIdentifier ?? machine,
            appName: appName, appVersion: appVersion,
            rsdFrameworkVersion: "activetask \(appVersion)")
    }
}
