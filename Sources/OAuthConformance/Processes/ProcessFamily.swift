import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything one supervised process (an adapter, an isolation worker) started, however it
/// tried to get away: the processes whose environment carries the process's mark (which a helper
/// keeps when it leaves the process group with setsid(), as daemonizing helpers do), and every
/// descendant of those, even one started with an environment of its own. Killing the process
/// group alone misses the first kind; following parents alone misses a helper whose parent has
/// died.
struct ProcessFamily: Sendable {
    /// The variable that marks every process of an adapter, in the environment it is started with.
    static let adapterVariable = "OAUTH_CONFORMANCE_ADAPTER"
    /// The variable that marks an isolation worker's: the adapters a worker starts inherit it
    /// beside their own mark, so they are found even once the worker that started them is dead.
    static let workerVariable = "OAUTH_CONFORMANCE_WORKER"

    /// The variable the mark is kept in.
    let variable: String
    /// Unique to one process, in this harness and in any other running beside it.
    let mark = UUID().uuidString

    init(variable: String = adapterVariable) {
        self.variable = variable
    }

    /// Makes the harness the child subreaper of what it starts (Linux): a process whose parent
    /// dies is adopted by the harness instead of by init, so the harness can reap the helpers it
    /// kills, and none is left a zombie for the rest of a long run.
    static let adoptOrphans: Void = {
        #if os(Linux)
        _ = setChildSubreaper(prSetChildSubreaper, 1)
        #endif
    }()

    /// Kills every member with SIGKILL and reaps those the harness adopted, round after round (a
    /// member may start another process between a look at /proc and the signal), until a look
    /// finds nobody left, or `rounds` or `limit` run out. `supervised`, the process the harness
    /// started, is never reaped here: `SupervisedProcess` reaps it for its exit status. Blocks the
    /// calling thread between rounds.
    func killAll(exceptReaping supervised: pid_t, rounds: Int = 200, within limit: Duration = .seconds(2)) {
        let deadline = ContinuousClock.now + limit
        let harness = getpid()
        // Zombies can no longer be recognised by their mark: remember every member seen alive.
        var seen: Set<pid_t> = []
        for _ in 0..<rounds {
            let table = ProcessTable.read()
            let members = table.family(carrying: variable, mark)
            seen.formUnion(members)
            let alive = members.filter { $0 != harness && table.entries[$0]?.isZombie == false }
            // Stopped first, all of them: a member whose child is killed before it must not run
            // on meanwhile (a shell's `sleep 300; touch done` would touch). SIGKILL ends a stopped process.
            for pid in alive { kill(pid, SIGSTOP) }
            for pid in alive { kill(pid, SIGKILL) }
            let adopted = seen.filter { pid in
                pid != supervised && table.entries[pid].map { $0.isZombie && $0.parent == harness } == true
            }
            for pid in adopted { _ = waitpid(pid, nil, WNOHANG) }
            guard !(alive.isEmpty && adopted.isEmpty), ContinuousClock.now < deadline else { return }
            usleep(5_000)
        }
    }

    /// `killAll` on a thread of its own, so its pauses never hold a thread of the cooperative pool.
    func killAllInBackground(exceptReaping supervised: pid_t) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                killAll(exceptReaping: supervised)
                done.resume()
            }
            thread.name = "process-\(supervised)-family"
            thread.start()
        }
    }
}

#if os(Linux)
/// PR_SET_CHILD_SUBREAPER from <linux/prctl.h>, which Swift's Glibc module does not include.
private let prSetChildSubreaper: Int32 = 36

/// prctl(2) is variadic in C, which Swift cannot call; this option takes one argument.
@_silgen_name("prctl")
private func setChildSubreaper(_ option: Int32, _ value: UInt) -> Int32
#endif
