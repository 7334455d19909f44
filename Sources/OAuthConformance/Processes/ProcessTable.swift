import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The machine's processes as /proc shows them at one moment: each one's parent and whether it
/// is a zombie. Empty where there is no /proc (macOS).
struct ProcessTable {
    struct Entry {
        let parent: pid_t
        let isZombie: Bool
    }

    let entries: [pid_t: Entry]

    static func read() -> ProcessTable {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var entries: [pid_t: Entry] = [:]
        for pid in names.compactMap({ pid_t($0) }) {
            if let entry = Self.entry(pid) { entries[pid] = entry }
        }
        return ProcessTable(entries: entries)
    }

    /// The processes whose environment has `variable=value`, and every descendant of those,
    /// zombies included. A zombie's environment can no longer be read, so it belongs only as a
    /// descendant.
    func family(carrying variable: String, _ value: String) -> Set<pid_t> {
        let needle = Data("\0\(variable)=\(value)\0".utf8)
        var members = Set(entries.keys.filter { Self.environment(of: $0)?.range(of: needle) != nil })
        var children: [pid_t: [pid_t]] = [:]
        for (pid, entry) in entries { children[entry.parent, default: []].append(pid) }
        // Each process joins at most once, so this ends after at most entries.count steps.
        var pending = Array(members)
        while let parent = pending.popLast() {
            for child in children[parent] ?? [] where members.insert(child).inserted { pending.append(child) }
        }
        return members
    }

    /// `/proc/PID/stat` is "pid (command) state ppid …", and the command may hold spaces and
    /// parentheses: the fields that matter follow the last ")".
    private static func entry(_ pid: pid_t) -> Entry? {
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
            let close = stat.lastIndex(of: UInt8(ascii: ")"))
        else { return nil }
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let parent = pid_t(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return Entry(parent: parent, isZombie: fields[0].first == UInt8(ascii: "Z"))
    }

    /// The process's environment as it was started ("NAME=value\0…"), with a NUL in front so that
    /// every variable is found as "\0NAME=value\0"; `nil` when it cannot be read (another user's).
    private static func environment(of pid: pid_t) -> Data? {
        FileManager.default.contents(atPath: "/proc/\(pid)/environ").map { Data([0]) + $0 }
    }
}
