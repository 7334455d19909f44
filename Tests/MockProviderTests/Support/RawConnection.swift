import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection, for sending bytes no HTTP client would send.
struct RawConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure.socket }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure.connect
        }
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Everything the server sends until it closes the connection (or 10 s pass).
    func receiveUntilClosed() -> String {
        receive().text
    }

    /// What the server sent, and whether the connection ended in a reset rather than a close;
    /// reading stops early once `done` holds for what arrived.
    func receive(until done: ([UInt8]) -> Bool = { _ in false }) -> (text: String, reset: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !done(received) {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { return (String(decoding: received, as: UTF8.self), errno == ECONNRESET) }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// One answer framed by Content-Length, leaving the connection open; what arrived so far
    /// when the server closes or stays silent for 10 s.
    func receiveAnswer() -> String {
        receive(until: Self.holdsCompleteAnswer).text
    }

    private static func holdsCompleteAnswer(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { return false }
        let length =
            text[..<headEnd.lowerBound].split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text[headEnd.upperBound...].utf8.count >= length
    }

    /// Sends `text` as one write, without SIGPIPE; false once the server has closed or reset the connection.
    @discardableResult
    func trySend(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        #if canImport(Glibc)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #else
        var noSignal: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        let sent = bytes.withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, 0) }
        #endif
        return sent == bytes.count
    }

    /// Whether the server has sent something (or closed) that a read would return at once.
    func hasSomethingToRead() -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }

    /// Shuts down the sending side (FIN), as an HTTP/1.1 client does when it has no more
    /// requests; answers can still be read.
    func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    func closeConnection() { close(descriptor) }

    enum Failure: Error { case socket, connect }
}
