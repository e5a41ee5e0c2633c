import WebCommandLine

/// `activetask-web`. The command line is `WebCommand` (WebCommandLine), which the multi-call
/// `activetask` of the Debian packages runs too (docs/install.md, "Size").
@main
enum WebExecutable {
    static func main() async {
        await WebCommand.main()
    }
}
