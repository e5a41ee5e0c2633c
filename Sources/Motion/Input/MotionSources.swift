public import Logging

/// Opens motion sources by URI.
public enum MotionSources {
    /// Opens `uri`: `sim:` (options `sim:still`, `sim:walking`, default walking) for the
    /// simulated IMU, anything else as a libiio context URI (`local:`, `ip:HOST`).
    public static func open(uri: String, logger: Logger) throws(MotionSourceError) -> any MotionSource {
        if uri == "sim" || uri.hasPrefix("sim:") {
            return try SimulatedMotionSource(uri: uri, logger: logger)
        }
        return try IIOMotionSource(uri: uri, logger: logger)
    }
}
