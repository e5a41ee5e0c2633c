/// Formats a coding path the way error messages name it: `steps[1].asyncActions[0].type`;
/// the empty path (the whole document) is `(root)`.
public enum CodingPath {
    /// The text for `keys`, array indexes in brackets, object keys joined by dots.
    public static func string(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "(root)" : text
    }

    /// Joins a prefix (a formatted path, possibly `(root)`) and a suffix (a formatted path).
    public static func join(_ prefix: String, _ suffix: String) -> String {
        if prefix == "(root)" || prefix.isEmpty { return suffix }
        if suffix == "(root)" || suffix.isEmpty { return prefix }
        return suffix.hasPrefix("[") ? prefix + suffix : "\(prefix).\(suffix)"
    }
}
