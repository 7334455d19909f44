import Foundation

/// A rendered report: its text, and the files it links to.
public struct RenderedReport: Sendable {
    public var text: String
    public var attachments: [ReportAttachment]

    public init(text: String, attachments: [ReportAttachment] = []) {
        self.text = text
        self.attachments = attachments
    }
}

/// A file a report links to, e.g. a full transcript too long to put in the report itself.
public struct ReportAttachment: Sendable, Equatable {
    public var path: String
    public var text: String
}

/// Writes a report so a reader never sees half of it: to a temporary file beside the target, then renamed.
public enum ReportFile {
    public static func write(_ text: String, to path: String) throws {
        let target = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        let temporary = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).\(UUID().uuidString).tmp"
        )
        try Data(text.utf8).write(to: temporary)
        if rename(temporary.path, target.path) != 0 {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(code))])
        }
    }

    /// The attachments first, so the report never links to a file that is not there yet.
    public static func write(_ report: RenderedReport, to path: String) throws {
        for attachment in report.attachments { try write(attachment.text, to: attachment.path) }
        try write(report.text, to: path)
    }
}
