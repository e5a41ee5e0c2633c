import CLibIIO
import Glibc

/// Every call into libiio, in one place: negative return codes become `IIOError` with libiio's
/// own message, EINTR is retried, and C strings become Swift strings. Nothing else in the
/// package touches libiio.
enum LibIIO {
    // MARK: Errors

    static func message(for code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 256)
        iio_strerror(code, &text, text.count)
        return decode(text, count: text.count)
    }

    static func error(_ code: Int32, _ operation: @autoclosure () -> String) -> IIOError {
        IIOError(code: code, operation: operation(), reason: message(for: code))
    }

    /// Runs `call` again while it fails with EINTR; a negative result throws.
    @inline(__always)
    static func checked<T: BinaryInteger>(
        _ operation: @autoclosure () -> String, _ call: () -> T
    ) throws(IIOError) -> T {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = Int32(truncatingIfNeeded: -Int(result))
            if code == EINTR { continue }
            throw error(code, operation())
        }
    }

    /// For calls that return NULL and set errno.
    static func checkedPointer(_ operation: @autoclosure () -> String, _ call: () -> OpaquePointer?) throws(IIOError) -> OpaquePointer {
        while true {
            errno = 0
            if let pointer = call() { return pointer }
            let code = errno == 0 ? ENODEV : errno
            if code == EINTR { continue }
            throw error(code, operation())
        }
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    // MARK: Library

    static func version() -> (major: UInt32, minor: UInt32, tag: String) {
        var major: UInt32 = 0
        var minor: UInt32 = 0
        var tag = [CChar](repeating: 0, count: 8)
        iio_library_get_version(&major, &minor, &tag)
        return (major, minor, decode(tag, count: tag.count))
    }

    // MARK: Context

    static func createContext(uri: String) throws(IIOError) -> OpaquePointer {
        try checkedPointer("open the IIO context \"\(uri)\"") { iio_create_context_from_uri(uri) }
    }

    static func destroy(context: OpaquePointer) { iio_context_destroy(context) }

    static func name(context: OpaquePointer) -> String { string(iio_context_get_name(context)) ?? "" }

    static func description(context: OpaquePointer) -> String { string(iio_context_get_description(context)) ?? "" }

    static func setTimeout(context: OpaquePointer, milliseconds: UInt32) throws(IIOError) {
        _ = try checked("set the IIO context time-out") { iio_context_set_timeout(context, milliseconds) }
    }

    static func devices(context: OpaquePointer) -> [OpaquePointer] {
        (0..<iio_context_get_devices_count(context)).compactMap { iio_context_get_device(context, $0) }
    }

    // MARK: Device

    static func id(device: OpaquePointer) -> String { string(iio_device_get_id(device)) ?? "" }

    static func name(device: OpaquePointer) -> String? { string(iio_device_get_name(device)) }

    static func label(device: OpaquePointer) -> String? { string(iio_device_get_label(device)) }

    static func channels(device: OpaquePointer) -> [OpaquePointer] {
        (0..<iio_device_get_channels_count(device)).compactMap { iio_device_get_channel(device, $0) }
    }

    static func attributeNames(device: OpaquePointer) -> [String] {
        (0..<iio_device_get_attrs_count(device)).compactMap { string(iio_device_get_attr(device, $0)) }
    }

    static func bufferAttributeNames(device: OpaquePointer) -> [String] {
        (0..<iio_device_get_buffer_attrs_count(device)).compactMap { string(iio_device_get_buffer_attr(device, $0)) }
    }

    static func readAttribute(device: OpaquePointer, _ name: String) throws(IIOError) -> String {
        var text = [CChar](repeating: 0, count: 4096)
        let count = try checked("read the attribute \(name) of \(id(device: device))") {
            iio_device_attr_read(device, name, &text, text.count)
        }
        return decode(text, count: Int(count))
    }

    static func writeAttribute(device: OpaquePointer, _ name: String, _ value: String) throws(IIOError) {
        _ = try checked("write \"\(value)\" to the attribute \(name) of \(id(device: device))") {
            iio_device_attr_write(device, name, value)
        }
    }

    static func readBufferAttribute(device: OpaquePointer, _ name: String) throws(IIOError) -> String {
        var text = [CChar](repeating: 0, count: 4096)
        let count = try checked("read the buffer attribute \(name) of \(id(device: device))") {
            iio_device_buffer_attr_read(device, name, &text, text.count)
        }
        return decode(text, count: Int(count))
    }

    static func sampleSize(device: OpaquePointer) throws(IIOError) -> Int {
        Int(try checked("compute the scan size of \(id(device: device))") { iio_device_get_sample_size(device) })
    }

    // MARK: Channel

    static func id(channel: OpaquePointer) -> String { string(iio_channel_get_id(channel)) ?? "" }

    static func name(channel: OpaquePointer) -> String? { string(iio_channel_get_name(channel)) }

    static func isOutput(channel: OpaquePointer) -> Bool { iio_channel_is_output(channel) }

    static func isScanElement(channel: OpaquePointer) -> Bool { iio_channel_is_scan_element(channel) }

    static func index(channel: OpaquePointer) -> Int { Int(iio_channel_get_index(channel)) }

    /// The channel's scan type as libiio parsed it; nil when libiio has none or one the decoder
    /// cannot read (a driver declaring, say, 24-bit storage), so such a channel is refused by name.
    static func format(channel: OpaquePointer) -> ScanType? {
        guard let format = iio_channel_get_data_format(channel)?.pointee else { return nil }
        let type = ScanType(
            isBigEndian: format.is_be, isSigned: format.is_signed, bits: Int(format.bits),
            storageBits: Int(format.length), shift: Int(format.shift), repeat: max(Int(format.repeat), 1))
        return type.isDecodable ? type : nil
    }

    static func attributeNames(channel: OpaquePointer) -> [String] {
        (0..<iio_channel_get_attrs_count(channel)).compactMap { string(iio_channel_get_attr(channel, $0)) }
    }

    static func readAttribute(channel: OpaquePointer, _ name: String) throws(IIOError) -> String {
        var text = [CChar](repeating: 0, count: 4096)
        let count = try checked("read the attribute \(name) of channel \(id(channel: channel))") {
            iio_channel_attr_read(channel, name, &text, text.count)
        }
        return decode(text, count: Int(count))
    }

    static func writeAttribute(channel: OpaquePointer, _ name: String, _ value: String) throws(IIOError) {
        _ = try checked("write \"\(value)\" to the attribute \(name) of channel \(id(channel: channel))") {
            iio_channel_attr_write(channel, name, value)
        }
    }

    static func enable(channel: OpaquePointer) { iio_channel_enable(channel) }

    static func disable(channel: OpaquePointer) { iio_channel_disable(channel) }

    static func isEnabled(channel: OpaquePointer) -> Bool { iio_channel_is_enabled(channel) }

    // MARK: Buffer

    static func createBuffer(device: OpaquePointer, scans: Int) throws(IIOError) -> OpaquePointer {
        let deviceID = id(device: device)
        // libiio sizes a scan by dividing by each enabled channel's size (storage bytes times
        // repeat) and dies of SIGFPE on a zero one: a scan type it could not read (a driver's
        // `le:s16/0>>0`, or a type file that vanished while the context was read, as when the
        // device goes away at that moment). Refused here, before libiio divides.
        for channel in channels(device: device) where index(channel: channel) >= 0 && isEnabled(channel: channel) {
            let size = iio_channel_get_data_format(channel).map { Int($0.pointee.length) / 8 * Int($0.pointee.repeat) } ?? 0
            if size == 0 {
                throw IIOError(
                    code: EINVAL, operation: "create a buffer of \(scans) scans on \(deviceID)",
                    reason: "\(message(for: EINVAL)); its channel \(id(channel: channel)) has no scan size (scan_elements/in_\(id(channel: channel))_type)")
            }
        }
        return try checkedPointer("create a buffer of \(scans) scans on \(deviceID)") {
            iio_device_create_buffer(device, scans, false)
        }
    }

    static func destroy(buffer: OpaquePointer) { iio_buffer_destroy(buffer) }

    /// Blocks until the buffer is full (or the context time-out passes); returns the bytes read.
    static func refill(buffer: OpaquePointer, deviceID: String) throws(IIOError) -> Int {
        Int(try checked("refill the buffer of \(deviceID)") { iio_buffer_refill(buffer) })
    }

    static func cancel(buffer: OpaquePointer) { iio_buffer_cancel(buffer) }

    static func setBlocking(buffer: OpaquePointer, _ blocking: Bool, deviceID: String) throws(IIOError) {
        _ = try checked("set the buffer of \(deviceID) to \(blocking ? "blocking" : "non-blocking") reads") {
            iio_buffer_set_blocking_mode(buffer, blocking)
        }
    }

    static func start(buffer: OpaquePointer) -> UnsafeMutableRawPointer? { iio_buffer_start(buffer) }

    static func end(buffer: OpaquePointer) -> UnsafeMutableRawPointer? { iio_buffer_end(buffer) }

    static func step(buffer: OpaquePointer) -> Int { Int(iio_buffer_step(buffer)) }

    static func first(buffer: OpaquePointer, channel: OpaquePointer) -> UnsafeMutableRawPointer? {
        iio_buffer_first(buffer, channel)
    }

    private static func decode(_ text: [CChar], count: Int) -> String {
        let bytes = text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
        var value = String(decoding: bytes, as: UTF8.self)
        while let last = value.last, last == "\n" || last == " " { value.removeLast() }
        return value
    }
}
