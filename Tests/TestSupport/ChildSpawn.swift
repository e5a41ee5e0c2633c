public import Glibc

/// posix_spawn for long-lived children a test reaps itself with waitpid (Foundation's `Process`
/// reaps its children one blocking wait at a time, which a server left running would hold up).
public enum ChildSpawn {
    /// Spawns `arguments[0]` with `arguments` and exactly `environment`; standard input from
    /// /dev/null, standard output into the file `standardOutput` (appended), standard error into
    /// `standardError` (truncated), or with standard output when nil; no other descriptor is
    /// inherited. Returns the child's pid.
    public static func spawn(_ arguments: [String], environment: [String: String],
                             standardOutput: String, standardError: String?) throws -> pid_t {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if let standardError {
            posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // Nothing else of the test process's: tests run in parallel in one process, and a file
        // another test has open without O_CLOEXEC at this moment would otherwise stay open in a
        // long-lived child (a sound server, a daemon), so unlinking it would free no space.
        // (glibc's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module leaves out.)
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        guard result == 0 else { throw ChildSpawnError(program: arguments[0], reason: String(cString: strerror(result))) }
        return pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up by name.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Waits for `pid` (EINTR retried) and returns its exit status, 128 + the signal when killed.
    public static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return exitStatus(status)
    }

    /// A `waitpid` status as a shell reports it: the exit code, or 128 + the signal.
    /// (WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.)
    public static func exitStatus(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

/// posix_spawn refused to start a program.
public struct ChildSpawnError: Error, CustomStringConvertible {
    public var program: String
    public var reason: String
    public var description: String { "\(program) could not be started: \(reason)" }
}
