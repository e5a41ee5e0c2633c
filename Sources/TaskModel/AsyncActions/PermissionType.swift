/// A permission an async action needs, with SageResearch's names.
public struct PermissionType: ExtensibleName {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let motion = PermissionType(rawValue: "motion")
    public static let microphone = PermissionType(rawValue: "microphone")
    public static let camera = PermissionType(rawValue: "camera")
    public static let photoLibrary = PermissionType(rawValue: "photoLibrary")
    public static let locationWhenInUse = PermissionType(rawValue: "locationWhenInUse")
    public static let location = PermissionType(rawValue: "location")
    public static let notifications = PermissionType(rawValue: "notifications")
}
