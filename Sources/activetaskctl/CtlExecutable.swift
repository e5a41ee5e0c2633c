import CtlCommandLine

/// `activetaskctl`. The command line is `ActiveTaskCtl` (CtlCommandLine), which the multi-call
/// `activetask` of the Debian packages runs too (docs/install.md, "Size").
@main
enum CtlExecutable {
    static func main() async {
        await ActiveTaskCtl.main()
    }
}
