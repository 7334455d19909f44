import Synchronization

/// Lines from the reader thread, waited for with a time limit. One waiter at a time: the
/// harness asks one question and waits for its answer.
final class LineInbox: Sendable {
    private struct State {
        var buffered: [ProcessOutput] = []
        var waiter: (generation: Int, continuation: CheckedContinuation<ProcessOutput?, Never>)?
        var generation = 0
        var finished = false
    }

    private let state = Mutex(State())

    func deliver(_ output: ProcessOutput) {
        let waiter: CheckedContinuation<ProcessOutput?, Never>? = state.withLock { state in
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
    func next(within limit: Duration) async -> ProcessOutput? {
        let generation = state.withLock { state in
            state.generation += 1
            return state.generation
        }
        let timer = Mutex<Task<Void, Never>?>(nil)
        let result: ProcessOutput? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: ProcessOutput? = state.withLock { state in
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
        let waiter: CheckedContinuation<ProcessOutput?, Never>? = state.withLock { state in
            guard let waiter = state.waiter, waiter.generation == generation else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: nil)
    }
}
