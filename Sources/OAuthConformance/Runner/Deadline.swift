import Synchronization

/// Runs `operation`, giving up after `limit` of real time. A client that hangs must not hang
/// the harness: on time-out the operation is cancelled and left behind, and `nil` returned.
func withDeadline<Value: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async -> Value) async -> Value? {
    let pending = Mutex<CheckedContinuation<Value?, Never>?>(nil)
    let finish: @Sendable (Value?) -> Void = { value in
        pending.withLock { continuation in
            continuation?.resume(returning: value)
            continuation = nil
        }
    }
    return await withCheckedContinuation { continuation in
        pending.withLock { $0 = continuation }
        let work = Task { finish(await operation()) }
        Task {
            try? await Task.sleep(for: limit)
            work.cancel()
            finish(nil)
        }
    }
}
