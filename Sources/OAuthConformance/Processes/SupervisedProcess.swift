import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One process the harness started and answers for, an adapter or an isolation worker: a
/// process group of its own, stdin for requests, stdout read line by line on a thread of its own
/// (so a silent process is a timeout, never a stuck harness), stderr appended to a file the
/// harness reads. `terminate` kills the whole group and every other process of its family, so
/// nothing it started outlives it.
final class SupervisedProcess: Sendable {
    struct Launch: Sendable {
        /// The program and its arguments; the program is looked up on PATH.
        var arguments: [String]
        var directory: String
        var environment: [String: String]
        var stderrFile: String
        /// What the process is, in messages: `adapter`, `isolation worker`.
        var role = "adapter"
        /// The environment variable that marks the process's family (`ProcessFamily`). A process
        /// that starts supervised processes of its own gives them another variable, so each
        /// keeps both marks and its family is found under either.
        var familyVariable = ProcessFamily.adapterVariable
        /// The longest line read from stdout; reading stops at a longer one.
        var longestLine = AdapterProtocol.longestLine
    }

    let pid: pid_t
    private let role: String
    private let family: ProcessFamily
    private let stdinFD: Int32
    let lines: LineInbox
    private let exitStatus = Mutex<Int32?>(nil)
    private let stdinClosed = Mutex(false)
    private let killed = Mutex(false)

    init(_ launch: Launch) throws(ProcessFault) {
        Self.ignoreSIGPIPE
        ProcessFamily.adoptOrphans
        role = launch.role
        family = ProcessFamily(variable: launch.familyVariable)
        guard let program = launch.arguments.first else { throw ProcessFault("the \(launch.role) command is empty") }
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard closeOnExecPipe(&input) == 0 else { throw ProcessFault("could not make a pipe: \(Self.errnoText())") }
        guard closeOnExecPipe(&output) == 0 else {
            close(input[0])
            close(input[1])
            throw ProcessFault("could not make a pipe: \(Self.errnoText())")
        }
        let errorFD = open(launch.stderrFile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard errorFD >= 0 else {
            for descriptor in [input[0], input[1], output[0], output[1]] { _ = close(descriptor) }
            throw ProcessFault(
                "could not open \(launch.stderrFile) for the \(launch.role)'s stderr: \(Self.errnoText())"
            )
        }
        defer {
            // The child has its copies; the parent keeps only its own ends.
            close(input[0])
            close(output[1])
            close(errorFD)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorFD, 2)
        _ = spawnFileActionsAddChdir(&actions, launch.directory)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own (pgid = pid), so the process and everything it starts die together,
        // and a Ctrl-C at the terminal reaches the harness only, which stops it in order;
        // default signal handling and an empty mask, whatever the harness does with its own.
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        )

        let argv = launch.arguments.map { strdup($0) } + [nil]
        let marked = launch.environment.merging([family.variable: family.mark]) { _, mark in mark }
        let envp = marked.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for argument in argv { free(argument) }
            for variable in envp { free(variable) }
        }
        var child: pid_t = 0
        // posix_spawnp searches PATH in the harness's environment, not the one given to the child.
        let spawned = posix_spawnp(&child, program, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            close(input[1])
            close(output[0])
            throw ProcessFault(
                "could not start the \(launch.role) command \(launch.arguments.joined(separator: " ")) in \(launch.directory): \(String(cString: strerror(spawned)))"
            )
        }
        pid = child
        RunningProcesses.add(child, family)
        stdinFD = input[1]
        lines = LineInbox()
        let reader = Thread { [lines, fd = output[0], longest = launch.longestLine] in
            Self.read(fd, into: lines, longestLine: longest)
        }
        reader.name = "\(launch.role)-\(child)-stdout"
        reader.start()
    }

    /// Writes one line to the process's stdin.
    func send(_ line: String) async throws(ProcessFault) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(stdinFD, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let cause = Self.errnoText()
                throw ProcessFault(
                    "could not write to the \(role)'s stdin (\(cause)); \(await describeExit(waitingUpTo: .milliseconds(500)))"
                )
            }
            offset += written
        }
    }

    /// Closes stdin: a well-behaved adapter (or worker) exits when it reads end of file.
    func closeInput() {
        let wasOpen = stdinClosed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if wasOpen { close(stdinFD) }
    }

    /// How the process ended, waiting up to `limit` for it to end; `nil` if it is still running.
    /// The wait sleeps as a task: many adapters end at once under `--jobs` and in the tests, and
    /// a blocked thread of the cooperative pool would stall every other scenario meanwhile. It
    /// runs detached because a scenario that was given up on (cancelled) still has its adapter
    /// to reap (and an interrupted run its worker), and a cancelled sleep would not sleep.
    func exitStatus(waitingUpTo limit: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + limit
        return await Task.detached { [self] in
            while true {
                switch reap() {
                case .ended(let status): return status
                case .unknowable: return nil
                case .running:
                    guard ContinuousClock.now < deadline else { return nil }
                    try? await Task.sleep(for: .milliseconds(5))
                }
            }
        }.value
    }

    private enum Reaping {
        case ended(Int32)
        case running, unknowable
    }

    /// Whether the process has ended; reaps it the first time it has.
    private func reap() -> Reaping {
        exitStatus.withLock { known in
            if let known { return .ended(known) }
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, WNOHANG) } while reaped < 0 && errno == EINTR
            if reaped < 0 { return .unknowable }
            guard reaped == pid else { return .running }
            known = status
            return .ended(status)
        }
    }

    /// "it exited with status 3", "it was killed by signal 11 (SIGSEGV)", or "it is still running".
    func describeExit(waitingUpTo limit: Duration) async -> String {
        guard let status = await exitStatus(waitingUpTo: limit) else { return "it is still running" }
        return "it " + Self.describe(status: status)
    }

    /// "exited with status 3", "was killed by signal 11 (SIGSEGV)": a wait status in words.
    static func describe(status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(signal)\(signalNames[signal].map { " (\($0))" } ?? "")"
    }

    /// Kills the process group and reaps the process, then kills the rest of its family (helpers
    /// that left the group) and reaps the ones the harness adopted. The process is reaped first,
    /// so that its children still alive or unreaped pass to the harness. Safe to call more than
    /// once: the group is signalled once only, so a later call cannot hit a group that reuses the number.
    func terminate() async {
        closeInput()
        let first = killed.withLock { killed in
            defer { killed = true }
            return !killed
        }
        guard first else { return }
        kill(-pid, SIGKILL)
        _ = await exitStatus(waitingUpTo: .seconds(5))
        await family.killAllInBackground(exceptReaping: pid)
        RunningProcesses.remove(pid)
    }

    /// Lets the process exit by itself after end of input, then kills whatever of its family is left.
    func stop(grace: Duration) async {
        closeInput()
        _ = await exitStatus(waitingUpTo: grace)
        await terminate()
    }

    // MARK: Reading stdout

    private static func read(_ fd: Int32, into inbox: LineInbox, longestLine: Int) {
        defer { close(fd) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if !pending.isEmpty { inbox.deliver(ProcessOutput(line: pending)) }
                inbox.deliver(.endOfFile)
                return
            }
            var start = 0
            for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                pending += buffer[start..<index]
                inbox.deliver(ProcessOutput(line: pending))
                pending.removeAll(keepingCapacity: true)
                start = index + 1
            }
            pending += buffer[start..<count]
            if pending.count > longestLine {
                inbox.deliver(.overlong(prefix: String(decoding: pending.prefix(200), as: UTF8.self)))
                return
            }
        }
    }

    // MARK: Helpers

    private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    private static let ignoreSIGPIPE: Void = {
        // Writing to a process that died must be an error to report, not a signal that kills the harness.
        signal(SIGPIPE, SIG_IGN)
    }()

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }

    private static let signalNames: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        SIGABRT: "SIGABRT",
        SIGBUS: "SIGBUS",
        SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM",
    ]
}

// glibc has these (2.29 and later) but declares them only under _GNU_SOURCE, which Swift's
// Glibc module does not define.
#if os(Linux)
@_silgen_name("pipe2")
private func pipe2(_ descriptors: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnFileActionsAddChdir(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>,
    _ path: UnsafePointer<CChar>
) -> Int32

/// Both ends close on exec at once, so no other process the harness starts meanwhile inherits them.
private func closeOnExecPipe(_ descriptors: inout [Int32]) -> Int32 {
    pipe2(&descriptors, O_CLOEXEC)
}
#else
private func spawnFileActionsAddChdir(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>,
    _ path: UnsafePointer<CChar>
) -> Int32 {
    posix_spawn_file_actions_addchdir_np(actions, path)
}

private func closeOnExecPipe(_ descriptors: inout [Int32]) -> Int32 {
    guard pipe(&descriptors) == 0 else { return -1 }
    for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    return 0
}
#endif
