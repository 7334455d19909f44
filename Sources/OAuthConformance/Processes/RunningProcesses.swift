import Foundation
import Synchronization

/// The supervised processes running now (adapters, isolation workers), for the one moment the
/// harness cannot stop them in order: when it quits at once (a second Ctrl-C), nothing they
/// started may outlive it.
public enum RunningProcesses {
    private static let families = Mutex<[pid_t: ProcessFamily]>([:])

    static func add(_ process: pid_t, _ family: ProcessFamily) {
        families.withLock { $0[process] = family }
    }

    static func remove(_ process: pid_t) {
        _ = families.withLock { $0.removeValue(forKey: process) }
    }

    /// Kills every running process and everything it started, for a harness about to exit: at
    /// most a second per process, on the calling thread.
    public static func killAll() {
        for (process, family) in families.withLock({ $0 }) {
            family.killAll(exceptReaping: process, within: .seconds(1))
        }
    }
}
