import Foundation
import OAuthConformance
import Synchronization

/// An isolation worker's side of its pipes to the run: the messages it writes, whole lines one at
/// a time from any task, and the scenarios it reads.
final class WorkerChannel: Sendable {
    private let descriptor: Int32
    private let writing = Mutex(())

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes stdout for the messages and points stdout at stderr, so that whatever else writes
    /// to stdout (a stray print, a library) lands in stderr and cannot garble a message. The
    /// channel's descriptor closes on exec: an adapter the worker starts does not hold the
    /// pipe open after the worker has died.
    static func takingStandardOutput() -> WorkerChannel {
        let descriptor = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        return WorkerChannel(descriptor: descriptor)
    }

    func send(_ message: WorkerMessage) {
        writing.withLock { _ in Console.write(message.line + "\n", to: descriptor) }
    }

    /// The scenario ids on stdin, one a line, up to an empty line or the end of input.
    static func readAssignment() -> [String] {
        var ids: [String] = []
        while let line = readLine(), !line.isEmpty { ids.append(line) }
        return ids
    }

    /// Calls `stop` once stdin ends, from a thread of its own.
    static func onEndOfInput(_ stop: @escaping @Sendable () -> Void) {
        let watcher = Thread {
            while readLine() != nil {}
            stop()
        }
        watcher.name = "isolation-worker-stdin"
        watcher.start()
    }
}
