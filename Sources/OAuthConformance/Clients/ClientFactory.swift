/// Makes a client under test for each scenario and says what the client declares about itself.
public protocol ClientFactory: Sendable {
    var profile: ClientProfile { get }
    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest
}
