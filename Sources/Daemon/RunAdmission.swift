import ControlProtocol

/// Whether the daemon starts new runs (`run.start`, `run.resume`): it stops doing so when it is
/// stopping, and when it was asked to restart into a newly installed version once no run
/// records (docs/install.md, "Upgrades").
enum RunAdmission: Equatable, Sendable {
    case open
    /// SIGUSR2: the run under way, if any, records to its end; then the daemon exits for
    /// systemd to start the installed version.
    case restarting
    case shuttingDown

    /// Why a new run is refused; nil while runs may start.
    var refusal: ControlError? {
        switch self {
        case .open: nil
        case .restarting:
            ControlError(.shuttingDown, "The daemon is restarting into its newly installed version; start the run again in a few seconds, when it is back.")
        case .shuttingDown:
            ControlError(.shuttingDown, "The daemon is stopping; start the run when it is back.")
        }
    }
}
