import Foundation
import Testing

/// What a library's CI gets without Swift: `scripts/package` packs the debug build, linked
/// statically (`scripts/check-static-binary --link-only`), into the wheel and the tarball a
/// release ships, from the committed files alone; the tarball runs a shipped Python adapter from
/// any directory with the toolchain hidden. The wheel is installed and run by docs/ci/without-swift.md's jobs,
/// which scripts/test replays (`scripts/replay-ci`) before these tests start: one suite after
/// another there, not beside the parallel tests, whose clients' real-time timeouts three more
/// suites would starve. The release build is the same with `-c release`, which is too slow for
/// every test run (scripts/package without `--bin-dir` builds it).
@Suite("The packaged harness, without Swift", .serialized)
struct PackagedHarnessTests {
    struct Artifacts: Sendable {
        let folder: URL
        let wheel: URL
        let tarball: URL
    }

    /// Packed once for every test here.
    static let packed = Task { try await pack() }

    static func script(_ name: String, _ arguments: [String]) async throws -> ProcessRun {
        try await ProcessRun.run(PackageFiles.root.appendingPathComponent("scripts/\(name)"), arguments)
    }

    static func modified(_ url: URL) -> Date? {
        try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
    }

    /// Whether `file` is missing, or older than any of `dates` (a missing date counts as newer).
    static func isStale(_ file: URL, olderThan dates: [Date?]) -> Bool {
        guard let made = modified(file) else { return true }
        return dates.contains { $0.map { made < $0 } ?? true }
    }

    /// The artifacts in `.build/packaged-harness`, as scripts/test packs them before the tests
    /// start (compressing a hundred megabytes there competes with no test); packed again here
    /// when they are missing or older than the build or the last commit (whose files they carry),
    /// as for a `swift test` run alone.
    static func pack() async throws -> Artifacts {
        let staticBuild = PackageFiles.conformanceExecutable.deletingLastPathComponent()
            .appendingPathComponent("static")
        let staticBinary = staticBuild.appendingPathComponent("conformance")
        if isStale(staticBinary, olderThan: [modified(PackageFiles.conformanceExecutable)]) {
            let link = try await script("check-static-binary", ["--link-only"])
            try #require(link.status == 0, "\(link.standardOutput)\n\(link.standardError)")
        }
        let lastCommit = try await ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["git", "log", "-1", "--format=%ct"]
        )
        let committed = TimeInterval(lastCommit.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
            .map { Date(timeIntervalSince1970: $0) }
        let folder = PackageFiles.root.appendingPathComponent(".build/packaged-harness")
        func artifacts() -> Artifacts? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            guard let wheel = names.first(where: { $0.hasSuffix(".whl") }),
                let tarball = names.first(where: { $0.hasSuffix(".tar.gz") })
            else { return nil }
            let found = Artifacts(
                folder: folder,
                wheel: folder.appendingPathComponent(wheel),
                tarball: folder.appendingPathComponent(tarball)
            )
            let stale = [found.wheel, found.tarball].contains {
                isStale($0, olderThan: [modified(staticBinary), committed])
            }
            return stale ? nil : found
        }
        if let packed = artifacts() { return packed }
        try? FileManager.default.removeItem(at: folder)
        let package = try await script(
            "package",
            ["--bin-dir", staticBuild.path, "--out", folder.path, "--no-verify"]
        )
        try #require(package.status == 0, "\(package.standardOutput)\n\(package.standardError)")
        return try #require(artifacts(), "scripts/package wrote no wheel and tarball in \(folder.path)")
    }

    /// What scripts/package packs beside the binary, as git pathspecs: the suite, its schema, the
    /// client libraries' adapters and profiles (not the Swift reference client's, whose binary the
    /// package does not carry), the documentation.
    static let packedData = ["Scenarios", "Schemas", "Adapters", ":(exclude)Adapters/swift", "docs", "README.md"]

    /// The files of `packedData` as git tracks them (`git ls-files`).
    static func trackedDataFiles() async throws -> Set<String> {
        let listed = try await ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["git", "ls-files", "--"] + packedData
        )
        try #require(listed.status == 0, "\(listed.standardError)")
        return Set(listed.standardOutput.split(separator: "\n").map(String.init))
    }

    static func python(_ program: String, _ arguments: [String]) async throws -> ProcessRun {
        try await ProcessRun.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", program] + arguments)
    }

    @Test(
        "the wheel is tagged for any Python 3 on the glibc the binary needs, and carries the binary and the committed suite"
    )
    func wheelLayout() async throws {
        let artifacts = try await Self.packed.value
        let name = artifacts.wheel.lastPathComponent
        #expect(
            name.wholeMatch(of: /oauth_conformance-[0-9.]+-py3-none-manylinux_2_[0-9]+_(x86_64|aarch64)\.whl/) != nil,
            "\(name)"
        )
        let listing = try await Self.python(
            "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
            [artifacts.wheel.path]
        )
        try #require(listing.status == 0, "\(listing.standardError)")
        let entries = listing.standardOutput.split(separator: "\n").map(String.init)
        let version = try #require(name.split(separator: "-").dropFirst().first.map(String.init))
        let data = "oauth_conformance-\(version).data/"
        #expect(entries.contains(data + "scripts/conformance"))
        #expect(entries.contains("oauth_conformance/adapter.py"))
        #expect(entries.contains("oauth_conformance-\(version).dist-info/RECORD"))
        let share = data + "data/share/oauth-conformance/"
        let packed = Set(entries.filter { $0.hasPrefix(share) }.map { String($0.dropFirst(share.count)) })
        let tracked = try await Self.trackedDataFiles()
        // Nothing untracked (a virtualenv, a build, a stray file), nothing tracked left out.
        #expect(packed.subtracting(tracked).isEmpty, "packed but not tracked: \(packed.subtracting(tracked).sorted())")
        #expect(tracked.subtracting(packed).isEmpty, "tracked but not packed: \(tracked.subtracting(packed).sorted())")
    }

    @Test("the tarball has the layout of an install prefix, with the committed suite")
    func tarballLayout() async throws {
        let artifacts = try await Self.packed.value
        let listing = try await ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["tar", "-tzf", artifacts.tarball.path]
        )
        try #require(listing.status == 0, "\(listing.standardError)")
        let entries = listing.standardOutput.split(separator: "\n").map(String.init).filter { !$0.hasSuffix("/") }
        let root = artifacts.tarball.lastPathComponent.replacingOccurrences(of: ".tar.gz", with: "") + "/"
        #expect(entries.allSatisfy { $0.hasPrefix(root) })
        let relative = Set(entries.map { String($0.dropFirst(root.count)) })
        #expect(relative.isSuperset(of: ["bin/conformance", "PACKAGE.md"]))
        #expect(relative.filter { $0.hasPrefix("bin/") } == ["bin/conformance"])
        let share = "share/oauth-conformance/"
        let packed = Set(relative.filter { $0.hasPrefix(share) }.map { String($0.dropFirst(share.count)) })
        let tracked = try await Self.trackedDataFiles()
        #expect(packed == tracked, "differs from git ls-files: \(packed.symmetricDifference(tracked).sorted())")
    }

    @Test(
        "the tarball, unpacked, runs a shipped Python adapter's profile from a folder without Scenarios/, with Swift hidden"
    )
    func tarballRunsPythonAdapter() async throws {
        let artifacts = try await Self.packed.value
        let unpacked = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: unpacked) }
        let untar = try await ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["tar", "-C", unpacked.path, "--strip-components=1", "-xzf", artifacts.tarball.path]
        )
        try #require(untar.status == 0, "\(untar.standardError)")
        // The virtualenv Adapters/python/install.sh made for the repository's profiles, lent to the
        // unpacked ones (it is not relocatable, a link to it is).
        let python = unpacked.appendingPathComponent("share/oauth-conformance/Adapters/python")
        try FileManager.default.createSymbolicLink(
            at: python.appendingPathComponent(".venv"),
            withDestinationURL: PackageFiles.root.appendingPathComponent("Adapters/python/.venv")
        )
        let elsewhere = unpacked.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let run = try await ProcessRun.run(
            PackageFiles.root.appendingPathComponent("scripts/without-swift"),
            [
                unpacked.appendingPathComponent("bin/conformance").path, "run", "--jobs", "2",
                "--client", python.appendingPathComponent("independent-reactive.yaml").path,
                "--junit", elsewhere.appendingPathComponent("junit.xml").path,
            ],
            in: elsewhere
        )
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        let builtIn = try Fixtures.builtInScenarios().count
        #expect(
            run.standardOutput.contains("\(builtIn) scenarios against independent-reactive"),
            "\(run.standardOutput)"
        )
    }
}
