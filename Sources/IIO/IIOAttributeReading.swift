/// Something with named sysfs attributes (a device or a channel).
public protocol IIOAttributeReading {
    /// The names of the attributes.
    var attributeNames: [String] { get }
    /// Reads an attribute (trailing newline removed).
    func readAttribute(_ name: String) throws(IIOError) -> String
}

extension IIOAttributeReading {
    /// Reads an attribute, or nil when it does not exist or cannot be read.
    public func attribute(_ name: String) -> String? {
        guard attributeNames.contains(name) else { return nil }
        return try? readAttribute(name)
    }
}
