# frozen_string_literal: true

# Claim: refresh! keeps the previous refresh token only when the new one is nil
# (access_token.rb:88, "unless new_token.refresh_token"); "" is true in Ruby, so a refresh
# answered with "refresh_token": "" leaves an empty refresh token, and the next refresh sends
# refresh_token= with nothing.
require_relative 'probe_server'

server = ProbeServer.new do |_request, number|
  json(200, { access_token: "at-#{number}", token_type: 'Bearer', expires_in: 3600, refresh_token: number == 1 ? 'rt-1' : '' })
end
client = oauth2_client(server.url)
token = client.password.get_token('alice', 'wonderland')
token = token.refresh!
puts "after a refresh answered with \"refresh_token\": \"\": the token holds refresh_token #{token.refresh_token.inspect}"
begin
  token.refresh!
rescue StandardError => e
  puts "the next refresh! raised #{e.class}: #{e.message}"
end
server.stop
verdict(token.refresh_token == '',
        'a refresh answered with "refresh_token": "" replaces the refresh token with "", and the next refresh sends it empty',
        "the token kept #{token.refresh_token.inspect}")
