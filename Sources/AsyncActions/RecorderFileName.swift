/// Names recorder files as MobilePassiveData's `FileUtility.filename(for:)` does:
/// `<section>_<identifier>` for configurations declared in a section, else `<identifier>`;
/// `.` and whitespace become `_`, characters other than letters, digits, `-` and `_` are
/// removed, and the name is cut to 24 characters. A name already taken in the run gets `-2`,
/// `-3`, … (a deterministic variant of Sage's random suffix).
public enum RecorderFileName {
    /// The longest base name MobilePassiveData writes.
    public static let maximumLength = 24

    /// Names no recorder file may take: the run's own files.
    public static let reserved: Set<String> = ["taskResult", "metadata", "answers"]

    /// The base name (no extension) for an action, before clash resolution.
    public static func baseName(sectionIdentifier: String?, identifier: String) -> String {
        let raw = sectionIdentifier.map { "\($0)_\(identifier)" } ?? identifier
        var kept = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            if scalar == "." || scalar.properties.isWhitespace {
                kept.append("_")
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
                || scalar == "_" || scalar == "-"
            {
                kept.append(scalar)
            }
        }
        let name = String(String(kept).prefix(maximumLength))
        return name.isEmpty ? "recorder" : name
    }

    /// `baseName` + `.extension`, with `-N` inserted before the extension when the name is in
    /// `taken` or reserved.
    public static func unique(baseName: String, fileExtension: String, taken: Set<String>) -> String {
        unique(baseName: baseName, files: [("", fileExtension)], taken: taken)[0]
    }

    /// The names of a set of files sharing one base name (`microphone.wav` and
    /// `microphone_levels.json`): the first `-N` for which none of them is taken.
    public static func unique(baseName: String, files: [(suffix: String, fileExtension: String)], taken: Set<String>) -> [String] {
        func names(_ counter: Int?) -> [String] {
            let base = counter.map { "\(baseName)-\($0)" } ?? baseName
            return files.map { "\(base)\($0.suffix).\($0.fileExtension)" }
        }
        func isFree(_ candidate: [String]) -> Bool {
            !reserved.contains(baseName) && candidate.allSatisfy { !taken.contains($0) }
        }
        if isFree(names(nil)) { return names(nil) }
        var counter = 2
        while !names(counter).allSatisfy({ !taken.contains($0) }) { counter += 1 }
        return names(counter)
    }
}
