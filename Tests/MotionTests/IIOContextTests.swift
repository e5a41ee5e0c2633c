import Foundation
import IIO
import Testing

@testable import Motion

/// The libiio wrapper in-process through libiio's `xml:` backend: a context described by XML
/// (devices, channels, scan formats) with no device behind it, so nothing on the host is touched.
@Suite("libiio wrapper on an XML context")
struct IIOContextTests {
    static let xml = """
        <?xml version="1.0" encoding="utf-8"?>
        <context name="xml" version-major="0" version-minor="24" version-git="v0.24" description="test">
        <device id="iio:device0" name="imu6dof">
        <channel id="accel_x" type="input"><scan-element index="0" format="le:s16/16&gt;&gt;0" /><attribute name="scale" filename="in_accel_scale" /></channel>
        <channel id="accel_y" type="input"><scan-element index="1" format="le:s16/16&gt;&gt;0" /><attribute name="scale" filename="in_accel_scale" /></channel>
        <channel id="accel_z" type="input"><scan-element index="2" format="le:s16/16&gt;&gt;0" /><attribute name="scale" filename="in_accel_scale" /></channel>
        <channel id="anglvel_x" type="input"><scan-element index="3" format="be:s12/16&gt;&gt;4" /></channel>
        <channel id="anglvel_y" type="input"><scan-element index="4" format="be:s12/16&gt;&gt;4" /></channel>
        <channel id="anglvel_z" type="input"><scan-element index="5" format="be:s12/16&gt;&gt;4" /></channel>
        <channel id="timestamp" type="input"><scan-element index="6" format="le:s64/64&gt;&gt;0" /></channel>
        <attribute name="sampling_frequency" />
        </device>
        <device id="iio:device1" name="magn3d">
        <channel id="magn_x" type="input"><scan-element index="0" format="le:u16/16X2&gt;&gt;0" /></channel>
        <channel id="magn_y" type="input"><scan-element index="1" format="le:u16/16&gt;&gt;0" /></channel>
        <channel id="magn_z" type="input"><scan-element index="2" format="le:u16/16&gt;&gt;0" /></channel>
        <channel id="temp" type="input"><attribute name="raw" /></channel>
        </device>
        <device id="iio:device2" name="incomplete">
        <channel id="accel_x" type="input"><scan-element index="0" format="le:s16/16&gt;&gt;0" /></channel>
        </device>
        </context>
        """

    private func context() throws -> IIOContext {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iio-\(UUID().uuidString).xml")
        try Self.xml.write(to: url, atomically: true, encoding: .utf8)
        return try IIOContext(uri: "xml:\(url.path)")
    }

    @Test("Devices, channels and scan formats come through libiio")
    func devicesAndChannels() throws {
        let context = try context()
        #expect(context.name == "xml")
        let devices = context.devices
        #expect(devices.map(\.id) == ["iio:device0", "iio:device1", "iio:device2"])
        #expect(devices.map(\.name) == ["imu6dof", "magn3d", "incomplete"])
        let imu = devices[0]
        #expect(imu.channels.map(\.id) == ["accel_x", "accel_y", "accel_z", "anglvel_x", "anglvel_y", "anglvel_z", "timestamp"])
        #expect(imu.channels.allSatisfy { !$0.isOutput && $0.isScanElement })
        #expect(imu.channels.map(\.index) == [0, 1, 2, 3, 4, 5, 6])
        #expect(imu.channels[3].scanType == ScanType(parsing: "be:s12/16>>4"))
        #expect(imu.channels[6].scanType == ScanType(parsing: "le:s64/64>>0"))
        #expect(devices[1].channels[0].scanType == ScanType(parsing: "le:u16/16X2>>0"))
        #expect(imu.channels[0].attributeNames == ["scale"])
        #expect(imu.attributeNames == ["sampling_frequency"])
        #expect(devices[1].channels.first { $0.id == "temp" }?.isScanElement == false)
    }

    @Test("Discovery finds complete sensors on a combined IMU and a separate device, and skips incomplete ones")
    func discovery() throws {
        let found = MotionDiscovery.sensors(in: try context())
        #expect(found.map(\.sensor) == [.accelerometer, .gyroscope, .magnetometer])
        #expect(found.map(\.device.id) == ["iio:device0", "iio:device0", "iio:device1"])
        #expect(found[1].axes.map(\.id) == ["anglvel_x", "anglvel_y", "anglvel_z"])
        #expect(MotionDiscovery.timestampChannel(of: found[0].device)?.id == "timestamp")
        #expect(MotionDiscovery.timestampChannel(of: found[2].device) == nil)
    }

    @Test("A failing call throws IIOError with libiio's own message")
    func typedErrors() throws {
        // The XML backend describes devices but cannot read their attributes.
        let device = try #require(try context().devices.first)
        #expect {
            _ = try device.readAttribute("sampling_frequency")
        } throws: { error in
            guard let error = error as? IIOError else { return false }
            return error.code > 0 && !error.reason.isEmpty && error.description.contains("sampling_frequency")
        }
        #expect(throws: IIOError.self) { _ = try IIOContext(uri: "xml:/nonexistent/context.xml") }
    }
}
