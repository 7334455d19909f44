// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "OAuthConformance",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OAuthConformance", targets: ["OAuthConformance"]),
        .library(name: "MockProvider", targets: ["MockProvider"]),
        .executable(name: "conformance", targets: ["conformance-cli"]),
        .executable(name: "reference-adapter", targets: ["reference-adapter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
    ],
    targets: [
        .target(
            name: "MockProvider",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                // Well-formed ID tokens and the JWKS; deliberately broken tokens are assembled by hand.
                .product(name: "JWTKit", package: "jwt-kit"),
                // RSA signing keys for ID tokens (RS256, PS256), minted once per process.
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "OAuthConformance",
            dependencies: [
                "MockProvider",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                // The reference client's ID token validation (OpenID Connect Core §3.1.3.7).
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        .executableTarget(
            name: "conformance-cli",
            dependencies: [
                "OAuthConformance",
                "MockProvider",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The reference client behind the adapter protocol (Adapters/swift/reference.yaml).
        .executableTarget(
            name: "reference-adapter",
            dependencies: ["OAuthConformance", "MockProvider"]
        ),
        // Benchmarks/provider-vs-nginx.sh's floor: NIO with the provider's pipeline and no provider.
        .executableTarget(
            name: "nio-floor",
            dependencies: [
                "MockProvider",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/NIOFloor"
        ),
        // The provider's own cost per request, in process, without the network stack.
        .executableTarget(name: "handle-loop", dependencies: ["MockProvider"], path: "Benchmarks/HandleLoop"),
        .testTarget(
            name: "MockProviderTests",
            dependencies: [
                "MockProvider",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                // Verifies the provider's ID tokens against its JWKS independently of how it signs them.
                .product(name: "JWTKit", package: "jwt-kit"),
                // HS256 checks: JWTKit asserts (in debug builds) on an HMAC key shorter than 32 bytes,
                // and the client secret is one.
                .product(name: "Crypto", package: "swift-crypto"),
                // RS256 DPoP proofs made by hand, to see the provider take an RSA key.
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "OAuthConformanceTests",
            dependencies: ["OAuthConformance", "MockProvider", "conformance-cli", "reference-adapter"],
            // Broken scenario files the tests read from disk by path, as users' files are read.
            exclude: ["Fixtures"]
        ),
    ]
)

// A warning in the project's own code fails its build, so the build stays warning-free for
// everyone, CI included. Warning settings apply to the root package only (SE-0480): a
// dependency's warnings are its own and fail nothing.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
}
