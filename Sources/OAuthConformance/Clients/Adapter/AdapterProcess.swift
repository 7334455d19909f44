import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One running adapter: a process group of its own, stdin for requests, stdout read line by line
/// on a thread of its own (so a silent adapter is a timeout, never a stuck harness), stderr
/// appended to a file the harness reads per scenario. `terminate` kills the whole group and
/// every other process of the adapter's family, so nothing it started outlives it.
final class AdapterProcess: Sendable {
    struct Launch: Sendable {
        /// The program and its arguments; the program is looked up on PATH.
        var arguments: [String]
        var directory: String
        var environment: [String: String]
        var stderrFile: String
    }

    let pid: pid_t
    private let family = ProcessFamily()
    private let stdinFD: Int32
    let lines: LineInbox
    private let exitStatus = Mutex<Int32?>(nil)
    private let stdinClosed = Mutex(false)
    private let killed = Mutex(false)

    init(_ launch: Launch) throws(AdapterFault) {
        Self.ignoreSIGPIPE
        ProcessFamily.adoptOrphans
        guard let program = launch.arguments.first else { throw AdapterFault("the adapter command is empty") }
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard closeOnExecPipe(&input) == 0 else { throw AdapterFault("could not make a pipe: \(Self.errnoText())") }
        guard closeOnExecPipe(&output) == 0 else {
            close(input[0])
            close(input[1])
            throw AdapterFault("could not make a pipe: \(Self.errnoText())")
        }
        let errorFD = open(launch.stderrFile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard errorFD >= 0 else {
            for descriptor in [input[0], input[1], output[0], output[1]] { _ = close(descriptor) }
            throw AdapterFault("could not open \(launch.stderrFile) for the adapter's stderr: \(Self.errnoText())")
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
        // A group of its own (pgid = pid), so the adapter and everything it starts die together;
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
        let marked = launch.environment.merging([ProcessFamily.markVariable: family.mark]) { _, mark in mark }
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
            throw AdapterFault(
                "could not start the adapter command \(launch.arguments.joined(separator: " ")) in \(launch.directory): \(String(cString: strerror(spawned)))"
            )
        }
        pid = child
        RunningAdapters.add(child, family)
        stdinFD = input[1]
        lines = LineInbox()
        let reader = Thread { [lines, fd = output[0]] in Self.read(fd, into: lines) }
        reader.name = "adapter-\(child)-stdout"
        reader.start()
    }

    /// Writes one line to the adapter's stdin.
    func send(_ line: String) async throws(AdapterFault) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(stdinFD, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let cause = Self.errnoText()
                throw AdapterFault(
                    "could not write to the adapter's stdin (\(cause)); \(await describeExit(waitingUpTo: .milliseconds(500)))"
                )
            }
            offset += written
        }
    }

    /// Closes stdin: a well-behaved adapter exits when it reads end of file.
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
    /// to reap, and a cancelled sleep would not sleep.
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
        let signal = status & 0x7f
        if signal == 0 { return "it exited with status \((status >> 8) & 0xff)" }
        return "it was killed by signal \(signal)\(Self.signalNames[signal].map { " (\($0))" } ?? "")"
    }

    /// Kills the process group and reaps the process, then kills the rest of its family (helpers
    /// that left the group) and reaps the ones the harness adopted. The adapter is reaped first,
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
        RunningAdapters.remove(pid)
    }

    /// Lets the adapter exit by itself after end of input, then kills whatever of its family is left.
    func stop(grace: Duration) async {
        closeInput()
        _ = await exitStatus(waitingUpTo: grace)
        await terminate()
    }

    // MARK: Reading stdout

    private static func read(_ fd: Int32, into inbox: LineInbox) {
        defer { close(fd) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if !pending.isEmpty { inbox.deliver(AdapterOutput(line: pending)) }
                inbox.deliver(.endOfFile)
                return
            }
            var start = 0
            for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                pending += buffer[start..<index]
                inbox.deliver(AdapterOutput(line: pending))
                pending.removeAll(keepingCapacity: true)
                start = index + 1
            }
            pending += buffer[start..<count]
            if pending.count > AdapterProtocol.longestLine {
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
        // Writing to an adapter that died must be an error to report, not a signal that kills the harness.
        signal(SIGPIPE, SIG_IGN)
    }()

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }

    private static let signalNames: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS",
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

/// What the stdout reader saw, in order.
enum AdapterOutput: Sendable, Equatable {
    case line(String)
    /// A line longer than `AdapterProtocol.longestLine`; reading stopped there.
    case overlong(prefix: String)
    /// A line that is not UTF-8, which the protocol requires: a fault, never text with its bad
    /// bytes quietly replaced. `offset` is that of the first bad byte; `prefix` the line up to it.
    case notUTF8(offset: Int, prefix: String)
    case endOfFile

    /// One line as read: text when it is valid UTF-8.
    init(line bytes: [UInt8]) {
        if let text = String(validating: bytes, as: UTF8.self) {
            self = .line(text)
            return
        }
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var valid = 0
        while case .valid(let scalar) = parser.parseScalar(from: &input) { valid += scalar.count }
        self = .notUTF8(offset: valid, prefix: String(decoding: bytes[..<valid].suffix(200), as: UTF8.self))
    }
}

/// Lines from the reader thread, waited for with a time limit. One waiter at a time: the
/// harness asks one question and waits for its answer.
final class LineInbox: Sendable {
    private struct State {
        var buffered: [AdapterOutput] = []
        var waiter: (generation: Int, continuation: CheckedContinuation<AdapterOutput?, Never>)?
        var generation = 0
        var finished = false
    }

    private let state = Mutex(State())

    func deliver(_ output: AdapterOutput) {
        let waiter: CheckedContinuation<AdapterOutput?, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            switch output {
            case .endOfFile, .overlong: state.finished = true
            case .line, .notUTF8: break
            }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter.continuation
            }
            state.buffered.append(output)
            return nil
        }
        waiter?.resume(returning: output)
    }

    /// The next output, or `nil` when `limit` passes first or the waiting task is cancelled.
    func next(within limit: Duration) async -> AdapterOutput? {
        let generation = state.withLock { state in
            state.generation += 1
            return state.generation
        }
        let timer = Mutex<Task<Void, Never>?>(nil)
        let result: AdapterOutput? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: AdapterOutput? = state.withLock { state in
                    if !state.buffered.isEmpty { return state.buffered.removeFirst() }
                    if state.finished { return .endOfFile }
                    state.waiter = (generation, continuation)
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                    return
                }
                timer.withLock {
                    $0 = Task { [weak self] in
                        try? await Task.sleep(for: limit)
                        self?.abandonWaiter(generation)
                    }
                }
                if Task.isCancelled { abandonWaiter(generation) }
            }
        } onCancel: {
            abandonWaiter(generation)
        }
        timer.withLock { $0?.cancel() }
        return result
    }

    /// Gives up on the waiter of this generation, if it is still waiting; a later one is left alone.
    private func abandonWaiter(_ generation: Int) {
        let waiter: CheckedContinuation<AdapterOutput?, Never>? = state.withLock { state in
            guard let waiter = state.waiter, waiter.generation == generation else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: nil)
    }
}
