import Foundation
import Synchronization

/// The adapters running now, for the one moment the harness cannot stop them in order: when it
/// quits at once (a second Ctrl-C), nothing they started may outlive it.
public enum RunningAdapters {
    private static let families = Mutex<[pid_t: ProcessFamily]>([:])

    static func add(_ adapter: pid_t, _ family: ProcessFamily) {
        families.withLock { $0[adapter] = family }
    }

    static func remove(_ adapter: pid_t) {
        _ = families.withLock { $0.removeValue(forKey: adapter) }
    }

    /// Kills every running adapter and everything it started, for a harness about to exit: at
    /// most a second per adapter, on the calling thread.
    public static func killAll() {
        for (adapter, family) in families.withLock({ $0 }) {
            family.killAll(exceptReaping: adapter, within: .seconds(1))
        }
    }
}
