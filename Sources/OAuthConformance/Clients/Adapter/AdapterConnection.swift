import Foundation
import MockProvider

/// One live adapter process spoken to through the protocol: a question, then its answer within
/// a time limit. The first fault (a crash, a line that is not the protocol, a silence) kills the
/// process group and is kept: every later question gets the same fault, and the supervisor
/// starts a new process for the next scenario.
actor AdapterConnection {
    /// Most of the adapter's stderr a scenario's report keeps: the end, where the trouble is.
    static let stderrLimit = 64 * 1024

    private let process: SupervisedProcess
    private let stderrFile: String
    private let fakeTimeFile: String?
    private var nextID = 1
    private var busy = false
    /// `OAUTH_CONFORMANCE_TRACE=FILE` appends every line exchanged to FILE (`>` sent, `<` read),
    /// for whoever writes an adapter.
    private let trace: FileHandle? = ProcessInfo.processInfo.environment["OAUTH_CONFORMANCE_TRACE"].flatMap { path in
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = FileHandle(forWritingAtPath: path)
        _ = try? handle?.seekToEnd()
        return handle
    }
    private(set) var fault: AdapterFault?

    init(process: SupervisedProcess, stderrFile: String, fakeTimeFile: String?) {
        self.process = process
        self.stderrFile = stderrFile
        self.fakeTimeFile = fakeTimeFile
    }

    var isAlive: Bool { fault == nil }

    /// Sends one request and waits for its answer. `now` is the virtual time: it travels in the
    /// message, and under libfaketime it is written to the timestamp file first.
    func ask(
        _ op: AdapterOp,
        _ fields: [String: JSONValue] = [:],
        now: Date?,
        timeout: Duration
    ) async -> Result<AdapterReply, AdapterFault> {
        if let fault { return .failure(fault) }
        guard !busy else {
            return .failure(
                AdapterFault("the harness asked \(op) while another question was open (one question at a time)")
            )
        }
        busy = true
        defer { busy = false }
        let request = AdapterRequest(id: nextID, op: op, now: now, fields: fields)
        nextID += 1
        do {
            if let fakeTimeFile, let now { try FakeTimeFile.write(now, to: fakeTimeFile) }
            try await process.send(request.line)
            record("> " + request.line)
        } catch let problem as ProcessFault {
            return .failure(await broken(AdapterFault(problem.message)))
        } catch {
            return .failure(await broken(AdapterFault("could not set the adapter's time: \(error)")))
        }
        switch await process.lines.next(within: timeout) {
        case .line(let line)?:
            record("< " + line)
            switch AdapterReply.parse(line, answering: request) {
            case .success(let reply): return .success(reply)
            case .failure(let problem): return .failure(await broken(problem))
            }
        case .notUTF8(let offset, let prefix)?:
            return .failure(
                await broken(
                    AdapterFault(
                        "the adapter wrote a line that is not UTF-8 (a bad byte at offset \(offset), after \(AdapterReply.quoted(prefix))): a protocol fault"
                    )
                )
            )
        case .overlong(let prefix)?:
            return .failure(
                await broken(
                    AdapterFault(
                        "the adapter wrote a line longer than \(AdapterProtocol.longestLine / (1 << 20)) MiB to stdout, starting \(AdapterReply.quoted(prefix))"
                    )
                )
            )
        case .endOfFile?:
            let exit = await process.describeExit(waitingUpTo: .milliseconds(500))
            return .failure(
                await broken(
                    AdapterFault("the adapter closed its stdout without answering \(op): \(exit) (see its stderr)")
                )
            )
        case nil:
            let cause =
                Task.isCancelled
                ? "the harness gave up waiting for its answer to \(op)"
                : "the adapter did not answer \(op) within \(DurationText.format(timeout))"
            return .failure(await broken(AdapterFault("\(cause); killed its process group \(process.pid)")))
        }
    }

    /// Starts a scenario's stderr afresh.
    func clearOutput() {
        if let handle = FileHandle(forWritingAtPath: stderrFile) {
            try? handle.truncate(atOffset: 0)
            try? handle.close()
        }
    }

    /// The stderr written since `clearOutput`: the last `stderrLimit` bytes, with a note when
    /// more was cut. `nil` when the adapter printed nothing.
    func output() -> String? {
        guard let handle = FileHandle(forReadingAtPath: stderrFile) else { return nil }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        guard size > 0 else { return nil }
        let start = size > UInt64(Self.stderrLimit) ? size - UInt64(Self.stderrLimit) : 0
        try? handle.seek(toOffset: start)
        let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        return start > 0 ? "[the first \(start) bytes of the adapter's stderr were cut]\n" + text : text
    }

    /// Says goodbye: `shutdown`, end of input, a moment to exit, then the group is killed.
    func stop() async {
        if fault == nil {
            _ = await ask(.shutdown, now: nil, timeout: .seconds(2))
        }
        await process.stop(grace: .seconds(1))
        fault = fault ?? AdapterFault("the adapter was shut down")
    }

    private func record(_ line: String) {
        trace?.write(Data((line + "\n").utf8))
    }

    private func broken(_ problem: AdapterFault) async -> AdapterFault {
        if fault == nil {
            fault = problem
            await process.terminate()
        }
        return fault ?? problem
    }
}

/// The file libfaketime reads the time from (`FAKETIME_TIMESTAMP_FILE`, with `FAKETIME_FMT=%s`):
/// Unix seconds, written whole by a rename so the adapter never reads half a time.
enum FakeTimeFile {
    static func write(_ date: Date, to path: String) throws {
        let text = String(format: "%.3f\n", AdapterRequest.unixSeconds(date))
        let staging = path + ".next"
        try Data(text.utf8).write(to: URL(fileURLWithPath: staging))
        guard rename(staging, path) == 0 else {
            throw AdapterFault("could not replace \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// What the adapter's environment needs for libfaketime to take its time from `file`: frozen
    /// at what the file says, re-read at every call, with the monotonic clock left real so the
    /// adapter's own timeouts and sleeps still work. `sleepFix` goes first in `LD_PRELOAD` when it
    /// could be built, so that its `clock_nanosleep` is the one the adapter calls.
    static func environment(library: String, file: String, inheriting inherited: [String: String]) -> [String: String] {
        [
            "LD_PRELOAD": ((sleepFix.map { [$0] } ?? []) + [library] + (inherited["LD_PRELOAD"].map { [$0] } ?? []))
                .joined(separator: " "),
            "FAKETIME_TIMESTAMP_FILE": file,
            "FAKETIME_FMT": "%s",
            "FAKETIME_NO_CACHE": "1",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        ]
    }

    /// libfaketime up to 0.9.10 (Debian 12's) maps every absolute `clock_nanosleep` deadline from
    /// the faked time to the real one, on CLOCK_MONOTONIC too, even though
    /// FAKETIME_DONT_FAKE_MONOTONIC leaves that clock real: the deadline becomes about -1.77e9 s
    /// and the kernel answers EINVAL. Python 3.11+ `time.sleep` sleeps exactly that way (fixed
    /// upstream in 0.9.11, libfaketime issue #426); no libfaketime variable turns it off. This
    /// library, preloaded before libfaketime, sends sleeps on the clocks left real straight to the
    /// C library and CLOCK_REALTIME sleeps on to libfaketime. Built once per user with the
    /// machine's C compiler (cc, clang or gcc) and kept in the temporary directory; `nil` when
    /// that is not possible, and then such sleeps fail as before.
    static let sleepFix: String? = buildSleepFix()

    static let sleepFixSource = #"""
        /* oauth-conformance: see FakeTimeFile.sleepFix. */
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <time.h>

        typedef int (*sleeper)(clockid_t, int, const struct timespec *, struct timespec *);
        static sleeper real_sleep, faked_sleep;

        __attribute__((constructor)) static void resolve(void) {
            void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
            sleeper real = libc ? (sleeper)dlsym(libc, "clock_nanosleep") : 0;
            sleeper faked = (sleeper)dlsym(RTLD_NEXT, "clock_nanosleep");
            __atomic_store_n(&faked_sleep, faked ? faked : real, __ATOMIC_RELEASE);
            __atomic_store_n(&real_sleep, real, __ATOMIC_RELEASE);
        }

        int clock_nanosleep(clockid_t clock, int flags, const struct timespec *request, struct timespec *remaining) {
            if (!__atomic_load_n(&real_sleep, __ATOMIC_ACQUIRE)) resolve();
            sleeper next = __atomic_load_n(clock == CLOCK_REALTIME ? &faked_sleep : &real_sleep, __ATOMIC_ACQUIRE);
            return next ? next(clock, flags, request, remaining) : ENOSYS;
        }
        """#

    private static func buildSleepFix() -> String? {
        #if os(Linux)
        let search = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(
            String.init
        )
        guard
            let compiler = ["cc", "clang", "gcc"].lazy.flatMap({ name in search.map { $0 + "/" + name } })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return nil }
        // Named by the source's FNV-1a hash, in a directory only this user can write.
        let hash = sleepFixSource.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "oauth-conformance-faketime-\(getuid())"
        ).path
        _ = mkdir(directory, 0o700)
        var status = stat()
        guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(),
            status.st_mode & 0o022 == 0
        else { return nil }
        let library = directory + "/libsleepfix-\(String(hash, radix: 16)).so"
        if FileManager.default.fileExists(atPath: library) { return library }
        let staging = directory + "/build-\(getpid())-\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(atPath: staging + ".c")
            try? FileManager.default.removeItem(atPath: staging + ".so")
        }
        guard (try? Data(sleepFixSource.utf8).write(to: URL(fileURLWithPath: staging + ".c"))) != nil else {
            return nil
        }
        let build = Process()
        build.executableURL = URL(fileURLWithPath: compiler)
        build.arguments = ["-shared", "-fPIC", "-O2", "-o", staging + ".so", staging + ".c", "-ldl"]
        build.standardInput = FileHandle.nullDevice
        build.standardOutput = FileHandle.nullDevice
        build.standardError = FileHandle.nullDevice
        guard (try? build.run()) != nil else { return nil }
        build.waitUntilExit()
        guard build.terminationReason == .exit, build.terminationStatus == 0, rename(staging + ".so", library) == 0
        else { return nil }
        return library
        #else
        return nil
        #endif
    }
}
