# frozen_string_literal: true

# Claim (the application's part): the gem builds the authorization URL and redeems the code it is
# handed, nothing more. authorize_url adds response_type and client_id to what the application
# passes (strategy/auth_code.rb:10-19): no state, no PKCE unless the application adds them (the
# README adds neither); get_token sends the code it is given (strategy/auth_code.rb:27-31) and
# never sees the redirect, so state, iss and error are the application's to read; with the
# code-less redirect of a denied authorization it sends an empty code.
require_relative 'probe_server'

server = ProbeServer.new do |_request, number|
  number == 1 ? json(200, { access_token: 'at-1', token_type: 'Bearer', expires_in: 3600 }) : json(400, { error: 'invalid_grant' })
end
client = oauth2_client(server.url)
url = client.auth_code.authorize_url(redirect_uri: 'http://127.0.0.1/callback')
query = URI.decode_www_form(URI(url).query).to_h
puts "authorize_url, as the README calls it: #{url}"
token = client.auth_code.get_token('code-1', redirect_uri: 'http://127.0.0.1/callback')
puts "get_token('code-1') redeemed it: #{token.token}"
denied = URI.decode_www_form('error=access_denied&state=forged&iss=https%3A%2F%2Fattacker.example').to_h
begin
  client.auth_code.get_token(denied['code'], redirect_uri: 'http://127.0.0.1/callback')
rescue OAuth2::Error => e
  puts "get_token with the code of a denied authorization (none): sent, refused #{e.code.inspect}"
end
server.stop
verdict(!query.key?('state') && !query.key?('code_challenge') && token.token == 'at-1',
        'no state and no PKCE in the README\'s authorization URL, and the redirect (state, iss, error) left to the application: get_token redeems whatever code it is handed',
        "the URL carried #{query.keys.inspect}")
