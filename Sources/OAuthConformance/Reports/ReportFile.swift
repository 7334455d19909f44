import Foundation

/// Writes a report so a reader never sees half of it: to a temporary file beside the target, then renamed.
public enum ReportFile {
    public static func write(_ text: String, to path: String) throws {
        let target = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        try Data(text.utf8).write(to: temporary)
        if rename(temporary.path, target.path) != 0 {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot write \(path): \(String(cString: strerror(code)))"])
        }
    }
}
