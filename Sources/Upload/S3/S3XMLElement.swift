import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An element of an S3 XML answer, parsed by Foundation's `XMLParser` (libxml2's SAX parser,
/// well-formedness checked, entities decoded; not `XMLDocument`, which crashes on Linux on a
/// malformed document): its name, its own text, its child elements. S3's answers are small
/// (a page of parts or uploads, an error), so the whole tree is kept.
struct S3XMLElement: Sendable, Hashable {
    var name: String
    /// The element's own text, trimmed.
    var text: String
    var children: [S3XMLElement]

    /// The document in `body`: nil when it is empty, white space only, truncated or otherwise
    /// not one well-formed XML document (`reason` says which).
    static func parse(_ body: [UInt8]) -> (root: S3XMLElement?, reason: String) {
        guard body.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            return (nil, body.isEmpty ? "the body is empty" : "the body is only white space")
        }
        let builder = Builder()
        let parser = XMLParser(data: Data(body))
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            return (nil, "the body is not a whole XML document (\(parser.parserError.map { "\($0)" } ?? "parse error"))")
        }
        return (root, "")
    }

    static func parse(_ text: String) -> S3XMLElement? {
        parse(Array(text.utf8)).root
    }

    /// The direct children named `name`, in order.
    func children(named name: String) -> [S3XMLElement] {
        children.filter { $0.name == name }
    }

    /// The text of the first direct child named `name`.
    func value(_ name: String) -> String? {
        children.first { $0.name == name }?.text
    }

    /// `text` with XML's five predefined entities escaped, for a request body.
    static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }

    /// Builds the tree from the parser's callbacks (the parser is synchronous: one thread).
    private final class Builder: NSObject, XMLParserDelegate {
        var root: S3XMLElement?
        private var open: [S3XMLElement] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
                    attributes attributeDict: [String: String] = [:]) {
            open.append(S3XMLElement(name: elementName, text: "", children: []))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !open.isEmpty else { return }
            open[open.count - 1].text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard var element = open.popLast() else { return }
            element.text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if open.isEmpty {
                root = element
            } else {
                open[open.count - 1].children.append(element)
            }
        }
    }
}
