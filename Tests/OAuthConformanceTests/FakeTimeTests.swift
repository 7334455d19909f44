import Foundation
import Testing

@testable import OAuthConformance

/// An adapter under libfaketime, with exactly the environment the harness gives it, sees the
/// virtual time and can still sleep, wait, start programs and run thread pools.
@Suite("libfaketime")
struct FakeTimeTests {
    /// What a Python client library does around a request: every piece reports "ok" or what
    /// went wrong; sleeps must take real time; the wall clock must stay frozen on the file's time.
    static let program = #"""
        import asyncio, concurrent.futures, datetime, faulthandler, json, subprocess, threading, time
        faulthandler.dump_traceback_later(30, exit=True)  # a hang fails the test instead of stalling it
        report = {"time_before": time.time()}

        def check(name, action, at_least=0.0):
            started = time.monotonic()
            try:
                value = action()
            except BaseException as error:
                report[name] = "failed: " + repr(error)
                return
            took = time.monotonic() - started
            report[name] = "ok" if took >= at_least else f"returned after {took:.6f}s, before {at_least}s"
            if value is not None:
                report[name + "_value"] = value

        def pool():
            with concurrent.futures.ThreadPoolExecutor(max_workers=4) as workers:
                return len(list(workers.map(lambda _: time.sleep(0.01), range(8))))

        check("sleep", lambda: time.sleep(0.01), 0.009)
        check("event_wait", lambda: threading.Event().wait(0.01) or None, 0.009)
        check("asyncio_sleep", lambda: asyncio.run(asyncio.sleep(0.01)), 0.009)
        check("subprocess", lambda: subprocess.run(["true"], check=True) and None)
        check("date", lambda: subprocess.run(["date", "+%s"], check=True, capture_output=True, text=True).stdout.strip())
        check("thread_pool", pool, 0.019)
        report["datetime_now"] = datetime.datetime.now(datetime.timezone.utc).timestamp()
        report["time_after"] = time.time()
        print(json.dumps(report))
        """#

    @Test(
        "under the harness's libfaketime settings, time.time() is the file's time and sleeps, waits, asyncio, subprocesses and thread pools work"
    )
    func pythonUnderFakeTime() async throws {
        let library = try #require(
            AdapterProfileLoader.fakeTimeLibraryCandidates.first { FileManager.default.fileExists(atPath: $0) },
            "libfaketime is not installed: install Debian's faketime package (apt-get install faketime), as scripts/test does"
        )
        let python = try #require(ProcessRun.which("python3"), "python3 is not on PATH")
        let scratch = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let script = scratch.appendingPathComponent("clock.py")
        try Data(Self.program.utf8).write(to: script)
        let file = scratch.appendingPathComponent("faketime").path
        let virtual = 1_767_225_600.5  // 2026-01-01T00:00:00.5Z, in the real time's past
        try FakeTimeFile.write(Date(timeIntervalSince1970: virtual), to: file)

        let environment = FakeTimeFile.environment(
            library: library,
            file: file,
            inheriting: ProcessInfo.processInfo.environment
        )
        let settings = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let run = try await ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            settings + [python.path, script.path],
            in: scratch
        )
        #expect(run.status == 0, "python exited with \(run.status); stderr: \(run.standardError)")
        let line = try #require(
            run.standardOutput.split(separator: "\n").last,
            "no output; stderr: \(run.standardError)"
        )
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            "not a JSON object: \(line)"
        )

        for piece in ["sleep", "event_wait", "asyncio_sleep", "subprocess", "date", "thread_pool"] {
            #expect(
                report[piece] as? String == "ok",
                "\(piece): \(report[piece] ?? "missing") (LD_PRELOAD=\(environment["LD_PRELOAD"] ?? ""))"
            )
        }
        #expect(report["date_value"] as? String == "1767225600", "a child process inherits the virtual clock")
        #expect(report["thread_pool_value"] as? Int == 8)
        #expect(report["time_before"] as? Double == virtual)
        #expect(report["time_after"] as? Double == virtual, "the time stays frozen while the program sleeps")
        #expect(report["datetime_now"] as? Double == virtual)
    }
}
