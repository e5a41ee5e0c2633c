/// Names recorder files as SageResearch does: `<section>_<identifier>` for configurations
/// declared in a section, else `<identifier>`; characters outside `[A-Za-z0-9_-]` removed; a
/// name already taken gets `-2`, `-3`, ….
public enum RecorderFileName {
    /// The base name (no extension) for an action, before clash resolution.
    public static func baseName(sectionIdentifier: String?, identifier: String) -> String {
        let raw = sectionIdentifier.map { "\($0)_\(identifier)" } ?? identifier
        let kept = raw.unicodeScalars.filter { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "-")
        }
        let name = String(String.UnicodeScalarView(kept))
        return name.isEmpty ? "recorder" : name
    }

    /// `baseName` + `.extension`, with `-N` inserted before the extension when the name is in
    /// `taken`.
    public static func unique(baseName: String, fileExtension: String, taken: Set<String>) -> String {
        let first = "\(baseName).\(fileExtension)"
        guard taken.contains(first) else { return first }
        var counter = 2
        while taken.contains("\(baseName)-\(counter).\(fileExtension)") { counter += 1 }
        return "\(baseName)-\(counter).\(fileExtension)"
    }
}
