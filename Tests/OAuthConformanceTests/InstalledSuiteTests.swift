import Foundation
import Testing

/// An installed `conformance` (`PREFIX/bin/conformance`, as pip and the tarball put it) runs the
/// suite installed with it (`PREFIX/share/oauth-conformance/Scenarios`) when given no path, from
/// any working directory; a working directory with its own `Scenarios/` keeps it.
@Suite("The suite installed beside the binary")
struct InstalledSuiteTests {
    /// A prefix holding the built `conformance` (a hard link: the binary finds its prefix from its
    /// own path, symbolic links resolved) and a suite of one scenario.
    static func prefix(with scenario: String) throws -> URL {
        let prefix = try PackageFiles.temporaryDirectory()
        let bin = prefix.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.linkItem(
            at: PackageFiles.conformanceExecutable,
            to: bin.appendingPathComponent("conformance")
        )
        let installed = prefix.appendingPathComponent("share/oauth-conformance/Scenarios/\(scenario)")
        try FileManager.default.createDirectory(
            at: installed.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try FileManager.default.copyItem(at: PackageFiles.scenarios.appendingPathComponent(scenario), to: installed)
        return prefix
    }

    static func listedIDs(_ prefix: URL, in directory: URL) async throws -> [String] {
        let listed = try await ProcessRun.run(
            prefix.appendingPathComponent("bin/conformance"),
            ["list", "--format", "json"],
            in: directory
        )
        try #require(listed.status == 0, "\(listed.standardError)")
        let scenarios = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]]
        return (scenarios ?? []).compactMap { $0["id"] as? String }
    }

    @Test("with no path and no Scenarios/ in the working directory, the installed suite runs")
    func installedSuiteWithoutLocalOne() async throws {
        let prefix = try Self.prefix(with: "tls/valid-certificate-accepted.yaml")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let elsewhere = prefix.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        #expect(try await Self.listedIDs(prefix, in: elsewhere) == ["tls/valid-certificate-accepted"])
        let run = try await ProcessRun.run(
            prefix.appendingPathComponent("bin/conformance"),
            ["run", "--junit", elsewhere.appendingPathComponent("junit.xml").path],
            in: elsewhere
        )
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(run.standardOutput.contains("1 scenarios against reference"), "\(run.standardOutput)")
    }

    @Test("a Scenarios/ folder in the working directory comes before the installed suite")
    func localSuiteFirst() async throws {
        let prefix = try Self.prefix(with: "tls/valid-certificate-accepted.yaml")
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(
            try await Self.listedIDs(prefix, in: PackageFiles.root).count == (try Fixtures.builtInScenarios().count)
        )
    }
}
