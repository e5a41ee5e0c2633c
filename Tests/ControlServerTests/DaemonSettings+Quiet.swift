import AsyncActions
import Daemon
import Foundation
import Logging
import Session
import TaskModel

extension DaemonSettings {
    /// A daemon for the in-process tests here: data and tasks in `directory`, the simulated IMU,
    /// no sound device, no voice, no retention, a logger that drops everything.
    static func quiet(in directory: URL, label: String) -> DaemonSettings {
        DaemonSettings(
            dataDirectory: directory, taskDirectory: directory,
            devices: DaemonDevices(iioURI: "sim:", captureDevice: "null", playbackDevice: "null"), voice: nil,
            permissionPolicy: PermissionPolicy(), typeRegistry: .standard, controllers: AsyncActionControllerRegistry(),
            retention: nil, logger: Logger(label: label) { _ in SwiftLogNoOpLogHandler() })
    }
}
