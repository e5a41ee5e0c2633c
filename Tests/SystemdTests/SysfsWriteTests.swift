import Foundation
import Testing
import TestSupport

/// `ProtectKernelTunables=` mounts /sys read-only and `ReadWritePaths=` re-mounts paths
/// writable. This replays that with the unit's own ReadWritePaths on a fake sysfs tree in a
/// private mount namespace: an IIO attribute written through its /sys/bus/iio/devices symlink
/// (as libiio does) must be writable.
@Suite("IIO attributes under the unit's read-only /sys")
struct SysfsWriteTests {
    static func readWritePaths() throws -> [String] {
        let unit = try String(contentsOf: PackagePaths.root.appendingPathComponent("systemd/activetaskd.service"), encoding: .utf8)
        return unit.split(separator: "\n").filter { $0.hasPrefix("ReadWritePaths=") }
            .flatMap { $0.dropFirst("ReadWritePaths=".count).split(separator: " ").map(String.init) }
            // "-" only tells systemd to ignore a path that does not exist; the path is the same.
            .map { $0.hasPrefix("-") ? String($0.dropFirst()) : $0 }
            .filter { $0.hasPrefix("/sys/") }
    }

    static let script = """
    sys="$1/sys"; shift
    mkdir -p "$sys/devices/platform/imu/iio:device0/buffer" "$sys/bus/iio/devices"
    echo 0 > "$sys/devices/platform/imu/iio:device0/buffer/enable"
    ln -s ../../../devices/platform/imu/iio:device0 "$sys/bus/iio/devices/iio:device0"
    mount --bind "$sys" "$sys"
    mount -o remount,bind,ro "$sys"
    for path in "$@"; do
        mount --bind "$sys${path#/sys}" "$sys${path#/sys}"
        mount -o remount,bind,rw "$sys${path#/sys}"
    done
    echo 1 > "$sys/bus/iio/devices/iio:device0/buffer/enable"
    cat "$sys/devices/platform/imu/iio:device0/buffer/enable"
    """

    @Test("buffer/enable is writable through the symlink with the unit's ReadWritePaths",
          .enabled(if: PrivateNamespace.unavailableReason == nil, "\(PrivateNamespace.unavailableReason ?? "")"))
    func bufferEnableWritable() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let paths = try Self.readWritePaths()
        #expect(paths.contains("/sys/bus/iio/devices"))
        let output = try await PrivateNamespace.run(Self.script, [scratch.url.path] + paths)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "1\n")
    }

    @Test("Only /sys/bus/iio/devices writable is not enough (the check can fail)",
          .enabled(if: PrivateNamespace.unavailableReason == nil, "\(PrivateNamespace.unavailableReason ?? "")"))
    func symlinkTargetReadOnly() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = try await PrivateNamespace.run(Self.script, [scratch.url.path, "/sys/bus/iio/devices"])
        #expect(output.status != 0)
        #expect(output.standardError.contains("Read-only file system"), "\(output.standardError)")
    }
}
