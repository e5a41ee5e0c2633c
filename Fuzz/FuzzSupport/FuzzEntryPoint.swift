/// The one fuzz target of this process and the C entry point libFuzzer calls with each input.
enum FuzzEntryPoint {
    /// Set once by `FuzzDriver.main` before any input runs; libFuzzer calls the target from one
    /// thread only, so the unsynchronised global is never raced.
    nonisolated(unsafe) static var target: ((FuzzInput) -> Void)?

    /// Runs the target on `size` bytes at `data`; libFuzzer requires 0.
    static let testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { data, size in
        runTarget(data: data, size: size)
    }

    static func runTarget(data: UnsafePointer<UInt8>?, size: Int) -> Int32 {
        guard let target else { fatalError("FuzzDriver.main sets the fuzz target before the first input.") }
        target(FuzzInput(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)))
        return 0
    }
}

#if FUZZING
/// libFuzzer's runtime (linked by `-sanitize=fuzzer`) requires this symbol; with
/// `LLVMFuzzerRunDriver` driving the run it is the same target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzEntryPoint.runTarget(data: data, size: size)
}
#endif
