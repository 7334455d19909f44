import Foundation

@testable import OAuthConformance

/// Small adapters written as Python scripts in a test, each speaking the protocol well or
/// misbehaving in one way, with the scratch folder they run in.
struct ScriptAdapter {
    let folder: URL

    /// How the script's `login` answers, on the first launch only; later launches behave.
    enum Behaviour: String {
        case behaves, crashes, garbage, hangs
        /// Writes 200 KiB to stderr at its login, then behaves.
        case chatty
        /// Answers `hello` with protocol version 2, on every launch.
        case wrongProtocol = "wrong-protocol"
        /// Answer `end` badly, on the first launch only: by exiting, with garbage, not at all, with
        /// `ok: false`, or with another message's id.
        case endCrashes = "end-crashes"
        case endGarbage = "end-garbage"
        case endHangs = "end-hangs"
        case endRefuses = "end-refuses"
        case endWrongID = "end-wrong-id"
        /// Answers its first login with a JSON line holding a byte that is not UTF-8.
        case notUTF8 = "not-utf8"
        /// Refuses its first login with a fault text full of line breaks, DEL and terminal escapes.
        case hostileFault = "hostile-fault"
        /// Shows a device prompt, then answers every device_poll with a wait of 1e300 seconds.
        case endlessWait = "endless-wait"
        /// At each login of its first launch, starts a helper in a session of its own (setsid, as
        /// daemonizing helpers do) that lives five minutes, then refuses the login as unsupported.
        case daemonizes
    }

    /// A well-behaved adapter for everything but `login` and `request`, which it refuses as
    /// `unsupported`; `request` answers with the time the adapter sees (time.time()) as its body.
    static let script = #"""
        import json, os, subprocess, sys, time
        behaviour, folder = sys.argv[1], sys.argv[2]
        first_launch = not os.path.exists(os.path.join(folder, "launched"))
        open(os.path.join(folder, "launched"), "a").close()
        with open(os.path.join(folder, "pids"), "a") as pids:
            pids.write(f"{os.getpid()}\n")
        def start_helper(**options):
            # Leaves a mark only if it lives out its sleep, which a killed helper never does.
            helper = subprocess.Popen(["sh", "-c", 'sleep 300; touch "$0/helper-finished"', folder], **options)
            with open(os.path.join(folder, "pids"), "a") as pids:
                pids.write(f"{helper.pid}\n")
        def answer(message, **fields):
            fields["id"] = message["id"]
            sys.stdout.write(json.dumps(fields) + "\n")
            sys.stdout.flush()
        while True:
            line = sys.stdin.readline()
            if not line:
                break
            message = json.loads(line)
            op = message["op"]
            print(f"adapter got {op}", file=sys.stderr, flush=True)
            if op == "hello":
                answer(message, ok=True, protocol=2 if behaviour == "wrong-protocol" else 1, name="script", version="1", capabilities=["virtual_clock", "device_grant"])
            elif op == "login" and first_launch and behaviour == "crashes":
                print("about to crash on purpose", file=sys.stderr, flush=True)
                os._exit(3)
            elif op == "login" and first_launch and behaviour == "garbage":
                sys.stdout.write("this is not the protocol\n")
                sys.stdout.flush()
            elif op == "login" and first_launch and behaviour == "hangs":
                start_helper()
                time.sleep(300)
            elif op == "login" and first_launch and behaviour == "daemonizes":
                start_helper(start_new_session=True)
                answer(message, ok=False, error={"category": "unsupported", "message": "login is not implemented"})
            elif op == "login" and behaviour == "chatty":
                sys.stderr.write("start of the flood\n" + "x" * 200_000 + "\nend of the flood\n")
                sys.stderr.flush()
                answer(message, ok=False, error={"category": "unsupported", "message": "login is not implemented"})
            elif op == "login" and first_launch and behaviour == "not-utf8":
                sys.stdout.buffer.write(b'{"id": ' + str(message["id"]).encode() + b', "ok": true, "body": "caf\xe9"}\n')
                sys.stdout.flush()
            elif op == "login" and first_launch and behaviour == "hostile-fault":
                answer(message, fault="line one\nline two\rback\x7fdel \x1b[31mred\x1b[0m \x1b]0;title\x07end")
            elif op == "end" and first_launch and behaviour.startswith("end-"):
                if behaviour == "end-crashes":
                    os._exit(4)
                elif behaviour == "end-garbage":
                    sys.stdout.write("goodbye\n")
                    sys.stdout.flush()
                elif behaviour == "end-hangs":
                    time.sleep(300)
                elif behaviour == "end-refuses":
                    answer(message, ok=False, error={"category": "unsupported", "message": "cannot close the session"})
                else:
                    sys.stdout.write(json.dumps({"id": message["id"] + 100, "ok": True}) + "\n")
                    sys.stdout.flush()
            elif op == "device_authorization" and behaviour == "endless-wait":
                answer(message, ok=True, user_code="CODE", verification_uri="http://127.0.0.1/device")
            elif op == "device_poll" and behaviour == "endless-wait":
                answer(message, ok=True, wait=1e300)
            elif op == "request":
                answer(message, ok=True, status=200, body=repr(time.time()))
            elif op in ("login", "restart", "complete_authorization"):
                answer(message, ok=False, error={"category": "unsupported", "message": f"{op} is not implemented", "type": "ScriptError"})
            else:
                answer(message, ok=True)
        """#

    init() throws {
        folder = try PackageFiles.temporaryDirectory()
        try Data(Self.script.utf8).write(to: folder.appendingPathComponent("adapter.py"))
    }

    func profile(
        _ behaviour: Behaviour,
        operationTimeout: Duration = .seconds(10),
        fakeTime: Bool = false
    ) -> AdapterProfile {
        AdapterProfile(
            name: "script-\(behaviour.rawValue)",
            command: ["python3", "adapter.py", behaviour.rawValue, folder.path],
            directory: folder.path,
            fakeTimeLibrary: fakeTime
                ? AdapterProfileLoader.fakeTimeLibraryCandidates.first { FileManager.default.fileExists(atPath: $0) }
                : nil,
            declared: ClientProfile(
                name: "script-\(behaviour.rawValue)",
                version: "unknown",
                capabilities: fakeTime ? [] : [.virtualClock, .deviceGrant],
                refreshWindow: nil
            ),
            timeouts: .init(start: .seconds(20), operation: operationTimeout, scenario: .seconds(60))
        )
    }

    /// `profile` as a profile file in the script's folder, for `conformance run --client`.
    func profileFile(_ behaviour: Behaviour, operationTimeout: String) throws -> URL {
        let file = folder.appendingPathComponent("profile.yaml")
        try """
        profile: 1
        name: script-\(behaviour.rawValue)
        adapter:
          directory: \(folder.path)
          command: [python3, adapter.py, \(behaviour.rawValue), \(folder.path)]
        capabilities: []
        timeouts: { start: 20s, operation: \(operationTimeout), scenario: 600s }
        """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Whether the helper of the `hangs` or `daemonizes` adapter lived out its five-minute sleep.
    var helperFinished: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("helper-finished").path)
    }

    /// Every process the script started (adapters and their helpers), by pid.
    func pids() -> [pid_t] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("pids"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { pid_t($0) }
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A scenario the script passes: its login is refused as unsupported, and that is expected.
    static func scenario(_ id: String) throws -> Scenario {
        try Fixtures.scenario(scenarioText(id))
    }

    /// `scenario` as YAML.
    static func scenarioText(_ id: String) -> String {
        """
        conformance: 1
        id: \(id)
        title: The script's login is refused as unsupported
        area: errors
        level: MUST
        steps:
          - login: password
            outcome: { error: unsupported }
        expect:
          - never: { endpoint: token }
        """
    }

    /// Kills whatever the script started that is still alive, so a failing test leaves nothing behind.
    func killLeftovers() {
        for pid in pids() where !processIsGone(pid) { kill(pid, SIGKILL) }
    }
}

/// Whether a process is gone: no such process, or a zombie waiting to be reaped by whoever adopted it.
func processIsGone(_ pid: pid_t) -> Bool {
    if kill(pid, 0) != 0 { return errno == ESRCH }
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    return stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? true
}
