// The reference client as an adapter process: the Swift example of docs/adapter-protocol.md, and
// the proof that driving a client out of process changes no verdict. It reads one JSON request a
// line from stdin and writes one JSON answer a line to stdout; anything else goes to stderr. The
// messages are read and the answers written by the harness's own codec (`ClientCall`,
// `ClientAnswer`, `ClientEnvironment`), which Schemas/adapter-1.schema.json keeps honest.
//
//   reference-adapter [--defect NAME]     (NAME from `conformance run --help`)

import Foundation
import MockProvider
import OAuthConformance

let factory: ReferenceClientFactory = {
    let arguments = CommandLine.arguments.dropFirst()
    guard arguments.first == "--defect", let name = arguments.dropFirst().first else { return ReferenceClientFactory() }
    guard let defect = DefectiveClient.catalogue.first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("reference-adapter: unknown defect \(name)\n".utf8))
        exit(2)
    }
    return defect.factory
}()

/// The scenario in progress: the client, and the clock it reads, set from each message's `now`.
struct Session {
    var client: any ClientUnderTest
    var clock: VirtualClock
}

var session: Session?

/// One line on stdout, written at once (no buffer to forget to flush).
func answer(_ members: [String: JSONValue]) {
    FileHandle.standardOutput.write(Data((JSONValue.object(members).serialized() + "\n").utf8))
}

/// The harness's `now`; `nil` for anything but Unix seconds between 1970 and 9999, which no clock
/// could be moved to.
func date(_ value: JSONValue?) -> Date? {
    value.flatMap(NumericDate.seconds).map { Date(timeIntervalSince1970: $0) }
}

/// The reset message's environment, as the reference client takes it in process: decoded by
/// the type the harness encoded it from, reading the session's clock.
func environment(_ fields: JSONValue, clock: VirtualClock) -> ClientEnvironment? {
    let decoder = JSONDecoder()
    decoder.userInfo[.virtualClock] = clock
    return try? decoder.decode(ClientEnvironment.self, from: Data(fields.serialized().utf8))
}

@MainActor
func handle(_ message: JSONValue) async -> [String: JSONValue] {
    let name = message["op"]?.stringValue ?? ""
    guard let op = AdapterOp(rawValue: name) else {
        return ClientAnswer.outcome(.failure(ClientFailure(.unsupported, message: "unknown operation \(name)")))
            .replyMembers
    }
    switch op {
    case .hello:
        let profile = factory.profile
        return [
            "ok": .bool(true), "protocol": .integer(AdapterProtocol.version), "name": .string(profile.name),
            "version": .string(profile.version),
            "capabilities": .array(profile.capabilities.map(\.rawValue).sorted().map(JSONValue.string)),
        ]
    case .end, .shutdown:
        await session?.client.shutdown()
        session = nil
        return ["ok": .bool(true)]
    default: break
    }
    guard let now = date(message["now"]) else { return ["fault": .string("\(op) has no now")] }
    if op == .reset {
        await session?.client.shutdown()
        let clock = VirtualClock(origin: now)
        guard let fields = message["environment"], let environment = environment(fields, clock: clock) else {
            return ["fault": .string("reset has an incomplete environment")]
        }
        do {
            session = Session(client: try await factory.makeClient(for: environment), clock: clock)
        } catch {
            return ["fault": .string("could not make the client: \(error)")]
        }
        return ["ok": .bool(true)]
    }
    guard let session else { return ["fault": .string("\(op) before reset")] }
    // Virtual time only moves forward within a scenario; the client reads it from the clock.
    session.clock.advance(to: .milliseconds(Int64((now.timeIntervalSince(session.clock.origin) * 1000).rounded())))
    let client = session.client
    switch op {
    case .concurrently:
        guard case .array(let operations)? = message["operations"] else {
            return ["fault": .string("concurrently needs operations")]
        }
        let calls = operations.compactMap(ClientCall.init(message:)).filter(\.isBatchable)
        guard calls.count == operations.count else {
            return ["fault": .string("an operation of concurrently is not login, request or restart")]
        }
        let outcomes = await client.perform(concurrently: calls)
        return ["ok": .bool(true), "outcomes": .array(outcomes.map { .object(ClientAnswer.outcome($0).replyMembers) })]
    case .advance:
        await client.clockAdvanced()
        return ["ok": .bool(true)]
    default:
        guard let call = ClientCall(message: message) else { return ["fault": .string("\(op) is missing its fields")] }
        return await client.perform(call).replyMembers
    }
}

while let line = readLine() {
    guard let message = JSONValue.parse(line), let id = message["id"] else {
        FileHandle.standardError.write(Data("reference-adapter: not a request: \(line)\n".utf8))
        continue
    }
    var reply = await handle(message)
    reply["id"] = id
    answer(reply)
    if message["op"]?.stringValue == AdapterOp.shutdown.rawValue { break }
}
