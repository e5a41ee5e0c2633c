public import SystemPackage
import SystemCalls

/// Repairs sample files cut short by a crash, a kill or a power cut, keeping every complete
/// record. The daemon runs it on the files of interrupted runs when it starts.
public enum SampleFileRepair {
    /// What a repair did.
    public enum Outcome: Sendable, Hashable {
        /// The file was already complete; nothing changed.
        case alreadyComplete
        /// The file was cut: `keptElements` complete records were kept, `droppedBytes` of a
        /// partial record were removed, and the file was closed properly.
        case repaired(keptElements: Int, droppedBytes: Int64)
    }

    /// Makes a JSON array file valid again: keeps every complete top-level element, drops a
    /// partial last element and writes the closing bracket. An empty or headless file becomes
    /// `[]`.
    public static func repairJSONArray(at path: FilePath) throws(SampleFileError) -> Outcome {
        let descriptor = try open(path)
        defer { try? Syscalls.close(descriptor) }
        var scanner = JSONArrayScanner()
        try read(descriptor, path: path) { chunk in scanner.consume(chunk) }
        if scanner.isComplete { return .alreadyComplete }

        let keepLength: Int64
        let tail: StaticString
        if let end = scanner.lastElementEnd {
            keepLength = end
            tail = "\n]\n"
        } else if let open = scanner.openingBracketEnd {
            keepLength = open
            tail = "\n]\n"
        } else {
            keepLength = 0
            tail = "[]\n"
        }
        try truncate(descriptor, path: path, to: keepLength, appending: tail)
        return .repaired(keptElements: scanner.elementCount, droppedBytes: scanner.offset - keepLength)
    }

    /// Makes a CSV file whole again by dropping a partial last line.
    public static func repairCSV(at path: FilePath) throws(SampleFileError) -> Outcome {
        let descriptor = try open(path)
        defer { try? Syscalls.close(descriptor) }
        var size: Int64 = 0
        var lastNewlineEnd: Int64 = 0
        var lines = 0
        try read(descriptor, path: path) { chunk in
            for (index, byte) in chunk.enumerated() where byte == 0x0A {
                lastNewlineEnd = size + Int64(index) + 1
                lines += 1
            }
            size += Int64(chunk.count)
        }
        if lastNewlineEnd == size { return .alreadyComplete }
        try truncate(descriptor, path: path, to: lastNewlineEnd, appending: "")
        return .repaired(keptElements: max(lines - 1, 0), droppedBytes: size - lastNewlineEnd)
    }

    /// Opens a file to repair it.
    static func open(_ path: FilePath) throws(SampleFileError) -> FileDescriptor {
        do {
            return try Syscalls.open(path, .readWrite, options: [.closeOnExec])
        } catch {
            throw SampleFileError(path: path.string, operation: "open for repair", errno: error.errno)
        }
    }

    private static func read(
        _ descriptor: FileDescriptor, path: FilePath, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(SampleFileError) {
        let chunkSize = 64 * 1024
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 8)
        defer { storage.deallocate() }
        while true {
            let count: Int
            do {
                count = try Syscalls.read(descriptor, into: storage)
            } catch {
                throw SampleFileError(path: path.string, operation: "read", errno: error.errno)
            }
            if count == 0 { return }
            body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
        }
    }

    private static func truncate(
        _ descriptor: FileDescriptor, path: FilePath, to length: Int64, appending tail: StaticString
    ) throws(SampleFileError) {
        do {
            try Syscalls.ftruncate(descriptor, to: length)
        } catch {
            throw SampleFileError(path: path.string, operation: "truncate", errno: error.errno)
        }
        let tailBytes = tail.withUTF8Buffer { Array($0) }
        do {
            _ = try tailBytes.withUnsafeBytes { bytes in
                try Syscalls.writeAll(descriptor, toAbsoluteOffset: length, bytes)
            }
        } catch {
            throw SampleFileError(path: path.string, operation: "finish", caught: error)
        }
        try sync(descriptor, path: path)
    }

    /// Makes a repair durable: the file is fsynced before the run that holds it is finished.
    static func sync(_ descriptor: FileDescriptor, path: FilePath) throws(SampleFileError) {
        do {
            try Syscalls.fsync(descriptor)
        } catch {
            throw SampleFileError(path: path.string, operation: "fsync", errno: error.errno)
        }
    }
}

/// Follows the nesting of a JSON array's text, byte by byte, remembering where the last
/// complete top-level element ends. Also used to cut an array into its elements while reading.
public struct JSONArrayScanner: Sendable {
    public private(set) var offset: Int64 = 0
    public private(set) var openingBracketEnd: Int64?
    public private(set) var lastElementEnd: Int64?
    public private(set) var elementCount = 0
    public private(set) var isComplete = false
    /// Nesting depth after the last byte: 1 between the array's elements, 2 or more inside one.
    public private(set) var depth = 0
    private var inString = false
    private var escaped = false

    public init() {}

    mutating func consume(_ chunk: UnsafeRawBufferPointer) {
        for byte in chunk { consume(byte) }
    }

    /// Follows one byte; true when it ends a top-level element.
    @inline(__always) @discardableResult
    public mutating func consume(_ byte: UInt8) -> Bool {
        defer { offset += 1 }
        if isComplete { return false }
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if depth == 1 { return elementEnded() }
            }
            return false
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            depth += 1
            if depth == 1 { openingBracketEnd = offset + 1 }
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            depth -= 1
            if depth == 0 { isComplete = true }
            if depth == 1 { return elementEnded() }
        default:
            break
        }
        return false
    }

    private mutating func elementEnded() -> Bool {
        lastElementEnd = offset + 1
        elementCount += 1
        return true
    }
}
