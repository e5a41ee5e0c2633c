import CtlCommandLine
import Daemon
import Logging
import UploadCommandLine
import WebCommandLine

#if canImport(Glibc)
import Glibc
#endif

/// `activetask`: the four programs in one executable, as busybox does, so that the Swift
/// runtime, Foundation and ICU's data are installed once instead of four times
/// (docs/install.md, "Size"). The Debian packages install it as /usr/bin/activetask with
/// `activetaskd`, `activetaskctl`, `activetask-web` and `activetask-upload` as symlinks to it;
/// it runs the program its name says. Each program's command line is the same type its own
/// executable runs.
@main
enum MultiCallExecutable {
    static func main() async {
        let name = CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
        switch name {
        case "activetaskd":
            LoggingSystem.bootstrap(ActiveTaskDaemon.logHandlerFactory())
            await ActiveTaskDaemon.run(registry: .standard)
        case "activetaskctl":
            await ActiveTaskCtl.main()
        case "activetask-web":
            await WebCommand.main()
        case "activetask-upload":
            await UploadCommand.main()
        default:
            let message = "activetask: run it as activetaskd, activetaskctl, activetask-web or activetask-upload (a symlink of that name to it); it was run as '\(name)'.\n"
            _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            exit(64)
        }
    }
}
