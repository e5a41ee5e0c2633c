import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What the body of a `200` answer to CompleteMultipartUpload says (docs/upload.md, "Integrity,
/// multipart and resuming"). S3 sends the status line at once and the body only when the
/// object is assembled, so a `200` means nothing by itself: only a whole
/// `CompleteMultipartUploadResult` document counts (moto 5.2's `CompleteMultipartUploadResponse`
/// too). An `<Error>` document is S3's failure; an
/// empty, whitespace-only, truncated or otherwise unparsable body is a cut connection.
enum CompleteAnswer: Sendable, Hashable {
    /// The object was assembled: its ETag and, when the store computed one, its composite
    /// SHA-256 checksum.
    case completed(etag: String, checksumSHA256: String?)
    /// S3's `<Error>` document.
    case error(code: String, message: String?)
    /// Not a complete document (the reason, for the log).
    case unreadable(String)

    /// Parses `body` with Foundation's XMLParser (well-formedness included: a truncated
    /// document fails).
    static func parse(_ body: [UInt8]) -> CompleteAnswer {
        guard body.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            return .unreadable(body.isEmpty ? "the body is empty" : "the body is only white space")
        }
        let reader = Reader()
        let parser = XMLParser(data: Data(body))
        parser.delegate = reader
        guard parser.parse(), let root = reader.root else {
            return .unreadable("the body is not a whole XML document (\(parser.parserError.map { "\($0)" } ?? "parse error"))")
        }
        switch root {
        // AWS's root element; moto 5.2 names it CompleteMultipartUploadResponse (boto3 reads
        // either), and a store that assembled the object says so in either.
        case "CompleteMultipartUploadResult", "CompleteMultipartUploadResponse":
            guard let etag = reader.fields["ETag"], !etag.isEmpty else {
                return .unreadable("CompleteMultipartUploadResult names no ETag")
            }
            let checksum = reader.fields["ChecksumSHA256"].flatMap { $0.isEmpty ? nil : $0 }
            return .completed(etag: etag, checksumSHA256: checksum)
        case "Error":
            guard let code = reader.fields["Code"], !code.isEmpty else { return .unreadable("an Error document without a Code") }
            return .error(code: code, message: reader.fields["Message"])
        default:
            return .unreadable("the document is \(root), not CompleteMultipartUploadResult")
        }
    }

    /// Collects the root element's name and the text of its direct children.
    private final class Reader: NSObject, XMLParserDelegate {
        var root: String?
        var fields: [String: String] = [:]
        private var path: [String] = []
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
                    attributes attributeDict: [String: String] = [:]) {
            if root == nil { root = elementName }
            path.append(elementName)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            if path.count == 2 { fields[elementName] = text.trimmingCharacters(in: .whitespacesAndNewlines) }
            path.removeLast()
            text = ""
        }
    }
}
