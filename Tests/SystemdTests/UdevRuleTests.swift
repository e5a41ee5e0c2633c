import Foundation
import Testing
import TestSupport

/// udev/70-activetask.rules matched by `udevadm test` against umockdev devices, inside a private
/// mount namespace with an overlay /dev, a tmpfs /run and only these rules loaded: never the
/// host's /dev or /run/udev.
@Suite("udev rules")
struct UdevRuleTests {
    static var skipReason: String? {
        PrivateNamespace.unavailableReason
            ?? (ChildProcess.tool("udevadm") == nil ? "needs udevadm (Debian package udev, scripts/setup.sh)" : nil)
            ?? (ChildProcess.tool("umockdev-run") == nil ? "needs umockdev-run" : nil)
    }

    /// Devices in umockdev's text format: a motion IMU, a magnetometer with raw channels only,
    /// a light sensor (not motion), and an ALSA capture PCM.
    static let devices = """
    P: /devices/platform/test-imu/iio:device0
    N: iio:device0
    E: DEVNAME=/dev/iio:device0
    E: SUBSYSTEM=iio
    E: MAJOR=250
    E: MINOR=0
    A: name=test_imu\\n
    A: dev=250:0\\n
    A: scan_elements/in_accel_x_en=0\\n
    A: scan_elements/in_anglvel_x_en=0\\n
    A: buffer/enable=0\\n
    A: buffer/length=128\\n

    P: /devices/platform/test-magn/iio:device1
    N: iio:device1
    E: DEVNAME=/dev/iio:device1
    E: SUBSYSTEM=iio
    E: MAJOR=250
    E: MINOR=1
    A: name=test_magn\\n
    A: dev=250:1\\n
    A: in_magn_x_raw=12\\n

    P: /devices/platform/test-light/iio:device2
    N: iio:device2
    E: DEVNAME=/dev/iio:device2
    E: SUBSYSTEM=iio
    E: MAJOR=250
    E: MINOR=2
    A: name=test_als\\n
    A: dev=250:2\\n
    A: in_illuminance_raw=300\\n

    P: /devices/platform/test-sound/sound/card0/pcmC0D0c
    N: snd/pcmC0D0c
    E: DEVNAME=/dev/snd/pcmC0D0c
    E: SUBSYSTEM=sound
    E: MAJOR=116
    E: MINOR=24
    A: dev=116:24\\n

    """

    /// `udevadm test` output for `device`: the rule lines applied and the resulting properties.
    static func udevTest(_ device: String, in scratch: ScratchDirectory) async throws -> ChildProcess.Output {
        let devices = try scratch.write("devices.umockdev", devices)
        let script = """
        work="$1"; rules="$2"; devices="$3"; device="$4"
        mount -t tmpfs tmpfs /run
        mkdir -p "$work/dev-upper" "$work/dev-work" "$work/rules" "$work/pts"
        mount --bind /dev/pts "$work/pts"
        mount -t overlay overlay -o lowerdir=/dev,upperdir="$work/dev-upper",workdir="$work/dev-work" /dev
        mount --bind "$work/pts" /dev/pts
        # Only our rules: empty the system rule directories.
        mount --bind "$work/rules" /usr/lib/udev/rules.d
        mount --bind "$work/rules" /etc/udev/rules.d
        # Known group ids, whatever the host has: iio 990, audio 29.
        grep -v -e '^iio:' -e '^audio:' /etc/group > "$work/group"
        printf 'iio:x:990:\naudio:x:29:\n' >> "$work/group"
        mount --bind "$work/group" /etc/group
        cp "$rules" "$work/rules/"
        umockdev-run -d "$devices" -- udevadm test --action=add "$device" > "$work/udevadm.out"
        cat "$work/udevadm.out"
        # udevadm test only lists RUN programs: run ours on a copy of the attributes libiio
        # writes, then show their group and mode.
        command=$(sed -n "s|^run: '\\(/bin/sh -c .*chgrp iio.*\\)'$|\\1|p" "$work/udevadm.out")
        if [ -n "$command" ]; then
            attributes="$work/attributes"
            mkdir -p "$attributes/buffer" "$attributes/scan_elements"
            touch "$attributes/buffer/enable" "$attributes/buffer/length" "$attributes/scan_elements/in_accel_x_en" \
                  "$attributes/scan_elements/in_accel_x_index" "$attributes/sampling_frequency" "$attributes/name"
            chmod 0644 "$attributes"/buffer/* "$attributes"/scan_elements/* "$attributes"/sampling_frequency "$attributes"/name
            eval "$(echo "$command" | sed "s|$device|$attributes|")"
            cd "$attributes" && stat -c 'attribute %n %G %a' buffer/enable buffer/length scan_elements/in_accel_x_en scan_elements/in_accel_x_index sampling_frequency name
        fi
        """
        let rules = PackagePaths.root.appendingPathComponent("udev/70-activetask.rules").path
        return try await PrivateNamespace.run(script, [scratch.url.path, rules, devices, device])
    }

    static func properties(_ output: String) -> [String: String] {
        Dictionary(output.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let equals = line.firstIndex(of: "="), line.prefix(while: { $0 != "=" }).allSatisfy({ $0.isUppercase || $0 == "_" || $0.isNumber }) else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }, uniquingKeysWith: { $1 })
    }

    @Test("An IMU with accel and anglvel buffers gets group iio, mode 0660, the systemd tag and pulls the service in",
          .enabled(if: skipReason == nil, "\(skipReason ?? "")"))
    func imu() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = try await Self.udevTest("/sys/devices/platform/test-imu/iio:device0", in: scratch)
        #expect(output.status == 0, "\(output.standardError)")
        let text = output.standardOutput + output.standardError
        #expect(text.contains(/70-activetask.rules:\d+ GROUP 990/), "\(text)")
        #expect(text.contains(/70-activetask.rules:\d+ MODE 0660/))
        let properties = Self.properties(output.standardOutput)
        #expect(properties["ACTIVETASK_SENSOR"] == "accel anglvel")
        #expect(properties["SYSTEMD_WANTS"] == "activetaskd.service")
        #expect(properties["TAGS"]?.contains(":systemd:") == true)
        #expect(text.contains("run: '/bin/sh -c 'cd /sys/devices/platform/test-imu/iio:device0 && chgrp iio buffer/*"), "the sysfs attributes libiio writes go to the group")
        // The attributes libiio writes become group-writable by iio; the index and name stay as they were.
        let attributes = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("attribute ") }.map(String.init)
        #expect(attributes == [
            "attribute buffer/enable iio 664",
            "attribute buffer/length iio 664",
            "attribute scan_elements/in_accel_x_en iio 664",
            "attribute scan_elements/in_accel_x_index root 644",
            "attribute sampling_frequency iio 664",
            "attribute name root 644",
        ], "\(output.standardOutput)")
    }

    @Test("A magnetometer with raw channels only is a motion sensor too", .enabled(if: skipReason == nil, "\(skipReason ?? "")"))
    func magnetometer() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = try await Self.udevTest("/sys/devices/platform/test-magn/iio:device1", in: scratch)
        let properties = Self.properties(output.standardOutput)
        #expect(properties["ACTIVETASK_SENSOR"] == "magn", "\(output.standardOutput)\(output.standardError)")
        #expect(properties["SYSTEMD_WANTS"] == "activetaskd.service")
    }

    @Test("A light sensor is left alone", .enabled(if: skipReason == nil, "\(skipReason ?? "")"))
    func lightSensor() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = try await Self.udevTest("/sys/devices/platform/test-light/iio:device2", in: scratch)
        #expect(output.status == 0, "\(output.standardError)")
        let properties = Self.properties(output.standardOutput)
        #expect(properties["SYSTEMD_WANTS"] == nil)
        #expect(properties["TAGS"] == nil)
        #expect(!(output.standardOutput + output.standardError).contains(/70-activetask.rules:\d+ (GROUP|MODE)/))
    }

    @Test("A sound PCM gets group audio and mode 0660 and does not start the daemon", .enabled(if: skipReason == nil, "\(skipReason ?? "")"))
    func soundDevice() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = try await Self.udevTest("/sys/devices/platform/test-sound/sound/card0/pcmC0D0c", in: scratch)
        #expect(output.status == 0, "\(output.standardError)")
        let text = output.standardOutput + output.standardError
        #expect(text.contains(/70-activetask.rules:\d+ GROUP 29/), "\(text)")
        #expect(text.contains(/70-activetask.rules:\d+ MODE 0660/))
        #expect(Self.properties(output.standardOutput)["SYSTEMD_WANTS"] == nil)
    }
}
