/// The few fields S3's small XML answers carry (`UploadId`, `Code`, `ETag`, `Part`), read
/// without an XML library: S3 documents are flat and well-formed, and only element text with
/// the five predefined entities occurs in the fields used.
enum XMLFields {
    /// The text of every `<name>…</name>` in `document`, in order, entities decoded.
    static func values(_ name: String, in document: Substring) -> [String] {
        var values: [String] = []
        let open = "<\(name)>", close = "</\(name)>"
        var rest = document[...]
        while let start = rest.firstRange(of: open) {
            guard let end = rest[start.upperBound...].firstRange(of: close) else { break }
            values.append(decode(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return values
    }

    static func value(_ name: String, in document: Substring) -> String? {
        values(name, in: document).first
    }

    /// The raw text of each `<name>` element (its children unparsed), for lists such as `Part`.
    static func elements(_ name: String, in document: Substring) -> [Substring] {
        var elements: [Substring] = []
        let open = "<\(name)>", close = "</\(name)>"
        var rest = document[...]
        while let start = rest.firstRange(of: open) {
            guard let end = rest[start.upperBound...].firstRange(of: close) else { break }
            elements.append(rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return elements
    }

    static func decode(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        return String(text).replacing("&quot;", with: "\"").replacing("&apos;", with: "'")
            .replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&amp;", with: "&")
    }

    static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}
