import Synchronization

/// Runs `operation`, giving up after `limit` of real time. A client that hangs must not hang
/// the harness: on time-out the operation is cancelled and left behind, and `nil` returned.
func withDeadline<Value: Sendable>(
    _ limit: Duration,
    _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    let pending = Mutex<CheckedContinuation<Value?, Never>?>(nil)
    let racers = Mutex<[Task<Void, Never>]>([])
    let finish: @Sendable (Value?) -> Void = { value in
        pending.withLock { continuation in
            continuation?.resume(returning: value)
            continuation = nil
        }
    }
    let result = await withCheckedContinuation { continuation in
        pending.withLock { $0 = continuation }
        let work = Task { finish(await operation()) }
        let timer = Task {
            try? await Task.sleep(for: limit)
            finish(nil)
        }
        racers.withLock { $0 = [work, timer] }
    }
    // The loser of the race is cancelled: a finished step stops its timer, a late one its work.
    racers.withLock { racers in for racer in racers { racer.cancel() } }
    return result
}
