import Foundation

/// The built-in suite where an install put it, for the commands' default path `Scenarios`.
///
/// A checkout and an unpacked source tree have `Scenarios/` in the working directory, and that
/// folder is used as before. An installed harness has it beside the executable instead, laid out
/// as Unix programs keep their data (`PREFIX/bin/conformance`, `PREFIX/share/oauth-conformance/`):
/// `pip install oauth-conformance` puts the binary in the environment's `bin/` and the suite in
/// its `share/`, and the tarball of `scripts/package` unpacks to the same layout. So, after
/// either, `conformance run` needs no path in any directory, and the suite that runs is the one
/// of the same release as the binary.
enum InstalledSuite {
    /// The default path the commands take (`conformance run`, `list`, `validate`, `selftest`, `explain`).
    static let defaultPath = "Scenarios"

    /// Where the data of an installed harness lives, relative to the folder of its executable.
    static let shareFolder = "../share/oauth-conformance"

    /// `paths` as given, except that `Scenarios` alone, when the working directory has no such
    /// folder, names the installed suite (if there is one; otherwise the loader reports the
    /// missing path as before).
    static func paths(
        for paths: [String],
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        executable: URL? = Bundle.main.executableURL
    ) -> [String] {
        guard paths == [defaultPath], !isDirectory(workingDirectory.appendingPathComponent(defaultPath)),
            let installed = installedScenarios(executable: executable)
        else { return paths }
        return [installed.path]
    }

    /// `PREFIX/share/oauth-conformance/Scenarios` for an executable in `PREFIX/bin`, symbolic
    /// links resolved (a `conformance` linked into `/usr/local/bin` finds its own prefix).
    static func installedScenarios(executable: URL?) -> URL? {
        guard let executable else { return nil }
        let scenarios = executable.resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(shareFolder).appendingPathComponent(defaultPath).standardizedFileURL
        return isDirectory(scenarios) ? scenarios : nil
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
