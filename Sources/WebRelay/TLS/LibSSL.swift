import CLibSSL
import Foundation

/// Every call into OpenSSL's libssl, in one place: the server's context (certificate chain, key,
/// TLS 1.2 at least) and one connection's TLS over memory buffers, so that SwiftNIO moves the
/// bytes and libssl never touches a socket (`TLSServerHandler`). A failed call becomes
/// `WebRelayError.tls` (at start) or `TLSFailure` (on a connection) with OpenSSL's own message.
enum LibSSL {
    /// OpenSSL's queued errors as text (and the queue emptied), or `fallback`.
    static func lastError(_ fallback: String) -> String {
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            messages.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? fallback : messages.joined(separator: "; ")
    }

    /// A server's TLS set-up, shared by its connections.
    final class ServerContext: @unchecked Sendable {
        // Immutable once made; libssl's SSL_CTX may be shared by connections on any thread.
        fileprivate let context: OpaquePointer
        /// The DNS names and IP addresses the certificate names (its subjectAltName), which a
        /// browser may reach the server by.
        let names: [String]

        /// Loads the PEM certificate chain (the server's certificate first) and its private key,
        /// and checks that they belong together.
        init(certificateChain: String, privateKey: String) throws(WebRelayError) {
            ERR_clear_error()
            guard let context = SSL_CTX_new(TLS_server_method()) else {
                throw .tls("TLS cannot be set up: \(LibSSL.lastError("out of memory")).")
            }
            self.context = context
            guard activetask_ssl_ctx_set_min_tls12(context) == 1 else {
                SSL_CTX_free(context)
                throw .tls("TLS 1.2 cannot be required: \(LibSSL.lastError("unknown error")).")
            }
            guard SSL_CTX_use_certificate_chain_file(context, certificateChain) == 1 else {
                SSL_CTX_free(context)
                throw .tls("The certificate \(certificateChain) cannot be used: \(LibSSL.lastError("unknown error")). Pass a PEM file with the server's certificate first, then its chain.")
            }
            guard SSL_CTX_use_PrivateKey_file(context, privateKey, SSL_FILETYPE_PEM) == 1 else {
                SSL_CTX_free(context)
                let reason = LibSSL.lastError("unknown error")
                // libssl checks the key against the certificate as it loads it.
                if reason.contains("key values mismatch") {
                    throw .tls("The private key \(privateKey) does not belong to the certificate \(certificateChain): \(reason). Pass the key the certificate was made for.")
                }
                throw .tls("The private key \(privateKey) cannot be used: \(reason). Pass the certificate's key as an unencrypted PEM file.")
            }
            guard SSL_CTX_check_private_key(context) == 1 else {
                SSL_CTX_free(context)
                throw .tls("The private key \(privateKey) does not belong to the certificate \(certificateChain): \(LibSSL.lastError("they do not match")).")
            }
            names = Self.subjectAltNames(of: context)
        }

        deinit { SSL_CTX_free(context) }

        private static func subjectAltNames(of context: OpaquePointer) -> [String] {
            guard let certificate = SSL_CTX_get0_certificate(context),
                  let raw = X509_get_ext_d2i(certificate, NID_subject_alt_name, nil, nil) else { return [] }
            let list = OpaquePointer(raw)
            defer { activetask_general_names_free(list) }
            var names: [String] = []
            for index in 0..<activetask_general_names_count(list) {
                guard let name = activetask_general_names_at(list, index) else { continue }
                switch name.pointee.type {
                case GEN_DNS:
                    if let text = string(of: name.pointee.d.dNSName) { names.append(text.lowercased()) }
                case GEN_IPADD:
                    guard let value = name.pointee.d.iPAddress, let data = ASN1_STRING_get0_data(value) else { continue }
                    let bytes = Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(value))))
                    if let text = ListenAddress.addressText(bytes) { names.append(text) }
                default:
                    continue
                }
            }
            return names
        }

        private static func string(of value: UnsafeMutablePointer<ASN1_STRING>?) -> String? {
            guard let value, let data = ASN1_STRING_get0_data(value) else { return nil }
            return String(decoding: UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(value))), as: UTF8.self)
        }
    }

    /// Why a connection's TLS failed (a client that does not speak TLS, a bad record, an alert).
    struct TLSFailure: Error, CustomStringConvertible {
        var operation: String
        var reason: String
        var description: String { "TLS \(operation) failed: \(reason)" }
    }

    /// One connection's TLS: ciphertext from the network goes in with `receive`, what libssl
    /// has to send comes out of `takeOutput`; plaintext goes in with `write` and out of `read`.
    /// Used by one event loop at a time.
    final class Connection {
        private let ssl: OpaquePointer
        private let incoming: OpaquePointer
        private let outgoing: OpaquePointer
        private let context: ServerContext

        init(context: ServerContext) throws(TLSFailure) {
            ERR_clear_error()
            guard let ssl = SSL_new(context.context) else {
                throw TLSFailure(operation: "set-up", reason: LibSSL.lastError("out of memory"))
            }
            guard let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
                SSL_free(ssl)
                throw TLSFailure(operation: "set-up", reason: LibSSL.lastError("out of memory"))
            }
            SSL_set_bio(ssl, incoming, outgoing)
            SSL_set_accept_state(ssl)
            self.ssl = ssl
            self.incoming = incoming
            self.outgoing = outgoing
            self.context = context
        }

        /// Frees the connection and the two buffers it owns.
        deinit { SSL_free(ssl) }

        /// Hands libssl ciphertext received from the network.
        func receive(_ bytes: UnsafeRawBufferPointer) throws(TLSFailure) {
            var offset = 0
            while offset < bytes.count {
                let written = BIO_write(incoming, bytes.baseAddress! + offset, Int32(min(bytes.count - offset, Int(Int32.max))))
                guard written > 0 else { throw TLSFailure(operation: "receive", reason: LibSSL.lastError("the buffer refused the data")) }
                offset += Int(written)
            }
        }

        /// Takes the handshake further with what was received; true once it is complete.
        func handshake() throws(TLSFailure) -> Bool {
            ERR_clear_error()
            let result = SSL_do_handshake(ssl)
            if result == 1 { return true }
            try check(result, operation: "handshake")
            return false
        }

        /// Decrypts what was received into `buffer`: the byte count, nil when more must be
        /// received first, 0 when the client closed the TLS session.
        func read(into buffer: UnsafeMutableRawBufferPointer) throws(TLSFailure) -> Int? {
            ERR_clear_error()
            let result = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
            if result > 0 { return Int(result) }
            if SSL_get_error(ssl, result) == SSL_ERROR_ZERO_RETURN { return 0 }
            try check(result, operation: "read")
            return nil
        }

        /// Encrypts `bytes` (all of them: the memory buffer takes everything) for `takeOutput`.
        func write(_ bytes: UnsafeRawBufferPointer) throws(TLSFailure) {
            var offset = 0
            while offset < bytes.count {
                ERR_clear_error()
                let result = SSL_write(ssl, bytes.baseAddress! + offset, Int32(min(bytes.count - offset, Int(Int32.max))))
                guard result > 0 else {
                    try check(result, operation: "write")
                    throw TLSFailure(operation: "write", reason: "libssl wants to receive before it can send")
                }
                offset += Int(result)
            }
        }

        /// Sends the client a close_notify alert (through `takeOutput`).
        func shutdown() {
            ERR_clear_error()
            _ = SSL_shutdown(ssl)
            ERR_clear_error()
        }

        /// The ciphertext libssl has to send, emptied from its buffer.
        func takeOutput() -> [UInt8] {
            let pending = Int(BIO_ctrl_pending(outgoing))
            guard pending > 0 else { return [] }
            var bytes = [UInt8](repeating: 0, count: pending)
            let read = bytes.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32(pending)) }
            return read > 0 ? Array(bytes.prefix(Int(read))) : []
        }

        /// Wanting more input is no failure; anything else is, with OpenSSL's reason.
        private func check(_ result: Int32, operation: String) throws(TLSFailure) {
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                return
            case SSL_ERROR_ZERO_RETURN:
                throw TLSFailure(operation: operation, reason: "the client closed the TLS session")
            default:
                throw TLSFailure(operation: operation, reason: LibSSL.lastError("the connection broke"))
            }
        }
    }
}
