import Glibc
import FoundationEssentials
import SystemErrors

/// The only file of CardContent calling the C library: starting a program detached, and
/// checking that a file is an executable.
enum ProcessShims {
    /// Starts `arguments[0]` (a path) with `arguments` and `environment`, in a session of its own
    /// (`setsid`: it outlives the short-lived card that started it) with its standard streams on
    /// /dev/null, and returns its pid without waiting for it. Never through a shell.
    static func spawnDetached(_ arguments: [String], environment: [String: String]) throws -> pid_t {
        guard let program = arguments.first else { throw LaunchError.nothingToStart }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The card's signal dispositions and mask are not the app's.
        var defaults = sigset_t()
        sigfillset(&defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(spawnSetsid | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard status == 0 else { throw LaunchError.spawnFailed(program: program, errno: status) }
        return pid
    }

    /// glibc's POSIX_SPAWN_SETSID (2.26 and later), which its header shows only to _GNU_SOURCE code.
    private static let spawnSetsid: Int32 = 0x80

    /// Whether `path` is a file this user may execute.
    static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        return access(path, X_OK) == 0 && stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR
    }

    /// What `strerror` says of `code`.
    static func describe(errno code: Int32) -> String { Errno(code).description }
}
