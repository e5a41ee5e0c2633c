/// Why `activetask-web` cannot start.
public enum WebRelayError: Error, Equatable, CustomStringConvertible {
    case badListenAddress(String)
    case notLoopback(String)
    case noAssets(String)
    case tokenFile(String, String)
    /// TLS cannot be set up: the sentence says why and what to do.
    case tls(String)

    public var description: String {
        switch self {
        case .badListenAddress(let text):
            "--listen \(text) is not HOST:PORT; write e.g. 127.0.0.1:8470 or [::1]:8470."
        case .notLoopback(let text):
            "--listen \(text) is not a loopback address; without TLS activetask-web listens on 127.0.0.1 or ::1 only. Pass --tls-certificate and --tls-key to listen on another address (docs/kiosk.md, \"TLS\")."
        case .noAssets(let path):
            "The UI files were not found (\(path)); pass --assets with the folder that holds index.html, or install them beside the executable."
        case .tokenFile(let path, let reason):
            "The token file \(path) could not be written (\(reason)); pass a --token-file in a directory this user may write."
        case .tls(let sentence):
            sentence
        }
    }
}
