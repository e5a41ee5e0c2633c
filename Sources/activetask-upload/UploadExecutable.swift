import UploadCommandLine

/// `activetask-upload`. The command line is `UploadCommand` (UploadCommandLine), which the
/// multi-call `activetask` of the Debian packages runs too (docs/install.md, "Size").
@main
enum UploadExecutable {
    static func main() async {
        await UploadCommand.main()
    }
}
