import Foundation

/// Runs a fuzz target: under libFuzzer when the package is built with
/// `-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING` (scripts/fuzz.sh), otherwise as a
/// replayer that feeds the files named on the command line through the target once each, so a
/// crash reproducer or the seed corpus can be run by a normal build (docs/fuzzing.md).
///
/// SwiftPM renames an executable's `main`, so libFuzzer's own `main` never runs: the target's
/// main.swift calls `FuzzDriver.main`, which hands control to `LLVMFuzzerRunDriver`.
public enum FuzzDriver {
    /// Runs `target` on every input and exits with the fuzzer's (or the replay's) status.
    /// `name` and `usage` make the usage line printed when a normal build gets no input.
    public static func main(name: String, usage: String, _ target: @escaping (FuzzInput) -> Void) -> Never {
        FuzzEntryPoint.target = target
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, FuzzEntryPoint.testOneInput))
        #else
        let paths = CommandLine.arguments.dropFirst()
        if paths.isEmpty || paths.contains(where: { $0 == "-h" || $0 == "--help" }) {
            print("usage: \(name) FILE-OR-DIRECTORY... (\(usage)); built without FUZZING it replays the inputs once, see scripts/fuzz.sh to fuzz")
            exit(paths.isEmpty ? 64 : 0)
        }
        do {
            let count = try FuzzReplay.run(paths: Array(paths), target: target)
            print("\(name): replayed \(count) inputs without a crash")
            exit(0)
        } catch {
            printToStandardError("\(name): \(error)")
            exit(66)
        }
        #endif
    }
}

#if FUZZING
/// libFuzzer's driver entry (compiler-rt's FuzzerInterface.h); it returns the fuzzer's exit code.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
#endif
