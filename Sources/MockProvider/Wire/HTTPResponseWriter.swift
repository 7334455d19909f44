import NIOCore
import NIOHTTP1

/// Writes a provider response as HTTP/1.1 bytes. The provider frames its answers itself instead
/// of passing them through NIO's response encoder and header validator: an answer is one buffer
/// and one write, and a scripted header goes out exactly as the scenario wrote it (the scenario
/// loader refuses headers that cannot be sent at all).
enum HTTPResponseWriter {
    /// The whole answer; a response to HEAD carries no body (RFC 9110 §9.3.2) but still its length.
    static func bytes(
        of response: ProviderResponse,
        version: HTTPVersion,
        keepAlive: Bool,
        omittingBody: Bool = false,
        allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        let bodySize = response.body.utf8.count
        var buffer = allocator.buffer(capacity: 128 + response.headers.count * 48 + (omittingBody ? 0 : bodySize))
        writeHead(of: response, bodySize: bodySize, version: version, keepAlive: keepAlive, into: &buffer)
        if !omittingBody { buffer.writeString(response.body) }
        return buffer
    }

    /// The status line and the header fields. The framing headers are the server's: scripted
    /// `Content-Length` and `Connection` fields are dropped, and the real ones go last.
    static func writeHead(
        of response: ProviderResponse,
        bodySize: Int,
        version: HTTPVersion,
        keepAlive: Bool,
        into buffer: inout ByteBuffer
    ) {
        buffer.writeStaticString("HTTP/")
        buffer.writeString(String(version.major))
        buffer.writeStaticString(".")
        buffer.writeString(String(version.minor))
        buffer.writeStaticString(" ")
        buffer.writeString(String(response.status))
        buffer.writeStaticString(" ")
        buffer.writeString(HTTPResponseStatus(statusCode: response.status).reasonPhrase)
        buffer.writeStaticString("\r\n")
        for field in response.headers where !field.isNamed("Content-Length") && !field.isNamed("Connection") {
            buffer.writeString(field.name)
            buffer.writeStaticString(": ")
            buffer.writeString(field.value)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("Content-Length: ")
        buffer.writeString(String(bodySize))
        buffer.writeStaticString(keepAlive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n")
    }
}
