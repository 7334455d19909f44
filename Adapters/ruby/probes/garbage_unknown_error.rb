# frozen_string_literal: true

# Claim: when the token endpoint answers with bytes that are not HTTP, HTTPClient reads them as an
# answer and rack-oauth2 raises Rack::OAuth2::Client::Error with the made-up code 'Unknown' and
# the bytes as its description (rack/oauth2/client.rb:228-233): nothing says the connection
# failed or that a retry may succeed.
require 'socket'
require_relative 'oidc_provider'

provider = OIDCProvider.new { |_request, _number| json(404, {}) }
_config, client = relying_party(provider)
# The token endpoint moves to a socket that answers a banner and hangs up.
listener = TCPServer.new('127.0.0.1', 0)
Thread.new do
  connection = listener.accept
  connection.readpartial(65_536)
  puts "  server 127.0.0.1:#{listener.addr[1]} #1: a token request; answered SSH-2.0-OpenSSH_9.6 and closed"
  connection.write("SSH-2.0-OpenSSH_9.6\r\n")
  connection.close
end
client.token_endpoint = "http://127.0.0.1:#{listener.addr[1]}/token"
client.refresh_token = 'rt-1'
error = begin
  client.access_token!
  nil
rescue StandardError => e
  puts "access_token! raised #{e.class} (status #{e.respond_to?(:status) ? e.status.inspect : '-'}): #{e.message.inspect}"
  e
end
provider.stop
verdict(error.is_a?(Rack::OAuth2::Client::Error) && error.response[:error] == 'Unknown',
        'bytes that are not HTTP come back as Rack::OAuth2::Client::Error with the code "Unknown", not as a failed connection',
        "access_token! answered #{error.inspect}")
