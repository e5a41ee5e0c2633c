/// Why `activetask-web` cannot start.
public enum WebRelayError: Error, Equatable, CustomStringConvertible {
    case badListenAddress(String)
    case notLoopback(String)
    case badPublicOrigin(String)
    /// `--launch-origin` names no `--public-origin`.
    case launchOriginNotPublic(String)
    case noAssets(String)
    case tokenFile(String, String)
    /// `--tls-certificate`/`--tls-key` were given: TLS is a reverse proxy's now.
    case tlsOptionsGiven
    /// A timeout option is not a positive number of seconds.
    case badTimeout(option: String, value: String)

    public var description: String {
        switch self {
        case .badListenAddress(let text):
            "--listen \(text) is not HOST:PORT; write e.g. 127.0.0.1:8470 or [::1]:8470."
        case .notLoopback(let text):
            "--listen \(text) is not a loopback address; activetask-web listens on 127.0.0.1 or ::1 only. To reach it from another machine, put a TLS reverse proxy (caddy or nginx) in front and pass its address as --public-origin (docs/kiosk.md, \"TLS\")."
        case .badPublicOrigin(let text):
            "--public-origin \(text) is not an https origin; write the reverse proxy's address as https://HOST or https://HOST:PORT, without a path (docs/kiosk.md, \"TLS\")."
        case .launchOriginNotPublic(let text):
            "--launch-origin \(text) is not one of the --public-origin's; the launch page posts the token to this server only: give the proxy's origin as --public-origin too (docs/kiosk.md, \"TLS\")."
        case .noAssets(let path):
            "The UI files were not found (\(path)); pass --assets with the folder that holds index.html, or install them beside the executable."
        case .tokenFile(let path, let reason):
            "The token file \(path) could not be written (\(reason)); pass a --token-file in a directory this user may write."
        case .tlsOptionsGiven:
            "activetask-web no longer serves TLS itself: drop --tls-certificate and --tls-key, put caddy or nginx in front with that certificate (config/kiosk-caddy/Caddyfile, config/kiosk-nginx.conf) and pass its address as --public-origin https://HOST:PORT (docs/kiosk.md, \"TLS\")."
        case .badTimeout(let option, let value):
            "\(option) \(value) is not a number of seconds above 0; write e.g. \(option) 10."
        }
    }
}
