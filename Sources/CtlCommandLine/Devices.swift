import ArgumentParser
import DaemonCommands
import OfflineCommands

/// `activetaskctl devices`: the motion and audio devices the daemon can use (devices.list), or
/// with `--local` the audio devices ALSA knows on this machine, with what each accepts (no
/// daemon needed). The one command of both kinds: it picks the daemon's or the local listing.
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the daemon's motion and audio devices (--local: this machine's ALSA devices).")

    @OptionGroup var connection: SocketOptions

    @Flag(help: "List ALSA devices here, without the daemon.")
    var local = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(name: .customLong("no-probe"), help: "Only list names; do not open the devices.")
    var noProbe = false

    @Flag(help: "Log debug details to standard error.")
    var verbose = false

    func run() async throws {
        if local {
            try LocalDeviceListing.print(json: json, probe: !noProbe, verbose: verbose)
        } else {
            try await DaemonDeviceListing.print(from: connection, json: json)
        }
    }
}
