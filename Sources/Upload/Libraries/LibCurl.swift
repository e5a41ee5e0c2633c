import CCurl
import SystemCalls
import SystemPackage

/// Every call into libcurl, in one place: one easy handle per request, the request body read
/// from memory or streamed from a file by the read callback, the response collected by the
/// write and header callbacks. A failed transfer becomes `CurlError` with libcurl's own message.
/// `perform` blocks: callers run it through `BlockingCall` on a dedicated thread, never on an
/// actor or the concurrency pool. Nothing else in the package touches libcurl.
enum LibCurl {
    /// curl_global_init, once, before the first handle (it is not thread-safe itself).
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    static func message(for code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }

    static func perform(_ request: HTTPRequest, settings: TransferSettings) throws(CurlError) -> HTTPResponse {
        // Scheme, host and path only: a presigned URL's query is its signature (docs/upload.md, "Secrets").
        let operation = "\(request.method) \(LoggableURL.of(request.url))"
        guard initialized, let handle = curl_easy_init() else {
            throw CurlError(code: Int(CURLE_FAILED_INIT.rawValue), operation: operation, reason: "libcurl could not be initialized")
        }
        defer { curl_easy_cleanup(handle) }
        let transfer = Transfer(body: request.body)
        defer { transfer.close() }
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        // libcurl would send `Expect: 100-continue` and wait for an answer before a large body.
        for header in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            headerList = curl_slist_append(headerList, header)
        }

        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errorText in
            var options: [(CURLoption, Option)] = [
                (CURLOPT_URL, .string(request.url)),
                (CURLOPT_NOSIGNAL, .long(1)),
                (CURLOPT_ERRORBUFFER, .pointer(UnsafeMutableRawPointer(errorText.baseAddress!))),
                (CURLOPT_HTTPHEADER, .list(headerList)),
                (CURLOPT_CONNECTTIMEOUT, .long(settings.connectTimeoutSeconds)),
                (CURLOPT_LOW_SPEED_LIMIT, .long(1)),
                (CURLOPT_LOW_SPEED_TIME, .long(settings.stallSeconds)),
                (CURLOPT_WRITEFUNCTION, .callback(writeCallback)),
                (CURLOPT_WRITEDATA, .pointer(context)),
                (CURLOPT_HEADERFUNCTION, .callback(headerCallback)),
                (CURLOPT_HEADERDATA, .pointer(context)),
            ]
            switch request.method {
            case "GET": break
            case "HEAD": options.append((CURLOPT_NOBODY, .long(1)))
            case "DELETE": options.append((CURLOPT_CUSTOMREQUEST, .string("DELETE")))
            default:
                // Every other method sends a body (possibly empty, with Content-Length: 0).
                options += [
                    (CURLOPT_UPLOAD, .long(1)),
                    (CURLOPT_CUSTOMREQUEST, .string(request.method)),
                    (CURLOPT_INFILESIZE_LARGE, .offset(request.body.length)),
                    (CURLOPT_READFUNCTION, .callback(readCallback)),
                    (CURLOPT_READDATA, .pointer(context)),
                ]
            }
            if let caFile = settings.caFile { options.append((CURLOPT_CAINFO, .string(caFile))) }
            if let limit = settings.maxBytesPerSecond { options.append((CURLOPT_MAX_SEND_SPEED_LARGE, .offset(limit))) }
            for (option, value) in options {
                let result = set(handle, option, value)
                if result != CURLE_OK { return result }
            }
            return curl_easy_perform(handle)
        }
        if let problem = transfer.readProblem {
            throw CurlError(code: Int(CURLE_READ_ERROR.rawValue), operation: operation, reason: problem)
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw CurlError(code: Int(code.rawValue), operation: operation, reason: detail.isEmpty ? message(for: code) : detail)
        }
        var status = 0
        _ = activetask_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: transfer.headers, body: transfer.received)
    }

    private enum Option {
        case long(Int)
        case offset(Int64)
        case string(String)
        case pointer(UnsafeMutableRawPointer)
        case list(UnsafeMutablePointer<curl_slist>?)
        case callback(activetask_curl_data_callback)
    }

    private static func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Option) -> CURLcode {
        switch value {
        case .long(let number): activetask_curl_setopt_long(handle, option, number)
        case .offset(let number): activetask_curl_setopt_offset(handle, option, curl_off_t(number))
        // libcurl copies string options (since 7.17), so the temporary C string may go.
        case .string(let text): activetask_curl_setopt_string(handle, option, text)
        case .pointer(let pointer): activetask_curl_setopt_pointer(handle, option, pointer)
        case .list(let list): activetask_curl_setopt_list(handle, option, list)
        case .callback(let function): activetask_curl_setopt_callback(handle, option, function)
        }
    }

    /// The state one transfer's callbacks share: the body being sent and the response so far.
    private final class Transfer {
        let body: HTTPRequest.Body
        var sent: Int64 = 0
        var descriptor: FileDescriptor?
        var readProblem: String?
        var received: [UInt8] = []
        var headers: [String: String] = [:]

        init(body: HTTPRequest.Body) { self.body = body }

        func close() {
            if let descriptor { try? Syscalls.close(descriptor) }
            descriptor = nil
        }

        /// Fills `buffer` with the body's next bytes; 0 at its end; nil on a read error.
        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
            let remaining = body.length - sent
            guard remaining > 0 else { return 0 }
            let count = Int(min(Int64(buffer.count), remaining))
            switch body {
            case .none: return 0
            case .bytes(let bytes):
                bytes.withUnsafeBytes { source in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[Int(sent)..<Int(sent) + count]))
                }
                sent += Int64(count)
                return count
            case .file(let path, let offset, _):
                do {
                    if descriptor == nil { descriptor = try Syscalls.open(FilePath(path), .readOnly, options: [.closeOnExec]) }
                    let read = try Syscalls.read(descriptor!, fromAbsoluteOffset: offset + sent,
                                                 into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), path: path)
                    guard read > 0 else {
                        readProblem = "the archive \(path) ended \(remaining) bytes early (was it changed while being uploaded?)"
                        return nil
                    }
                    sent += Int64(read)
                    return read
                } catch {
                    readProblem = "\(error)"
                    return nil
                }
            }
        }
    }

    private static let readCallback: activetask_curl_data_callback = { buffer, size, count, context in
        guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let target = UnsafeMutableRawBufferPointer(start: buffer, count: size * count)
        return transfer.read(into: target) ?? Int(CURL_READFUNC_ABORT)
    }

    private static let writeCallback: activetask_curl_data_callback = { buffer, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let total = size * count
        if let buffer, transfer.received.count < HTTPResponse.maximumBody {
            let keep = min(total, HTTPResponse.maximumBody - transfer.received.count)
            transfer.received.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: keep))
        }
        return total
    }

    private static let headerCallback: activetask_curl_data_callback = { buffer, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let total = size * count
        guard let buffer else { return total }
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: total), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            // A new response (after 100 Continue or a redirect): only the last one's headers count.
            transfer.headers = [:]
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimming(" \t\r\n")
            transfer.headers[name] = value
        }
        return total
    }
}
