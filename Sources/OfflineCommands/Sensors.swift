import ArgumentParser
import CommandOutput
import Foundation
import Logging
import Motion
import TaskModel

/// `activetaskctl sensors --iio-uri URI [--json]`: lists the IIO devices and motion channels a
/// board offers, through the same discovery the motion recorder uses.
struct Sensors: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the IIO devices and motion channels (accelerometer, gyroscope, magnetometer) found at a URI.")

    @Option(name: .customLong("iio-uri"), help: "libiio context URI (local:, ip:HOST) or sim: for the simulated IMU.")
    var iioURI = "local:"

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let logger = CommandLogging.logger(label: "activetaskctl.sensors")
        let source: any MotionSource
        do {
            source = try MotionSources.open(uri: iioURI, logger: logger)
        } catch {
            FileHandle.standardError.write(Data("activetaskctl sensors: \(error.message)\n".utf8))
            throw ExitCode(1)
        }
        let inventory = source.inventory
        if json {
            try JSONOutput.print(inventory)
            return
        }
        print("\(inventory.uri) (\(inventory.backend)): \(inventory.devices.count) device(s) with motion channels")
        for device in inventory.devices {
            let rates = device.availableSamplingFrequencies.map { formatNumber($0) }.joined(separator: " ")
            print("\(device.id) \(device.name ?? "(no name)")")
            print("  sampling frequency: \(device.samplingFrequency.map(formatNumber) ?? "n/a") Hz; available: \(rates.isEmpty ? "n/a" : rates)")
            print("  timestamp: \(device.hasTimestampChannel ? "in_timestamp" : "none"), clock \(device.timestampClock ?? "n/a")")
            for sensor in device.sensors {
                print("  \(sensor.sensor.rawValue): mount matrix \(sensor.mountMatrix ?? "identity")")
                if let frequency = sensor.samplingFrequency {
                    print("    sampling frequency: \(formatNumber(frequency)) Hz")
                }
                for channel in sensor.channels {
                    print("    \(channel.id) index \(channel.index) \(channel.scanType) scale \(channel.scale) offset \(channel.offset)")
                }
            }
        }
    }

    private func formatNumber(_ value: Double) -> String {
        NumberText.plain(value)
    }
}
