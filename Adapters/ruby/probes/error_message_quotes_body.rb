# frozen_string_literal: true

# Claim: OAuth2::Error's message ends with the whole response body (error.rb:17 and 23-37), so a
# token response the gem refuses, one without access_token (client.rb:155-158) or one cut off in
# its JSON, is quoted into the error, tokens included.
require_relative 'probe_server'

answers = [
  json(200, '{"refresh_token":"rt-secret-1","token_type":"Bearer","expires_in":3600}'),
  json(200, '{"access_token":"at-secret-2","token_type":"Bearer","expi')
]
server = ProbeServer.new { |_request, _number| answers.shift }
client = oauth2_client(server.url)
quoted = []
[['a token response without access_token', 'rt-secret-1'], ['a token response cut off', 'at-secret-2']].each do |what, secret|
  client.password.get_token('alice', 'wonderland')
rescue OAuth2::Error => e
  puts "#{what}: OAuth2::Error #{e.message.inspect}"
  quoted << secret if e.message.include?(secret)
end
server.stop
verdict(quoted.size == 2,
        'the OAuth2::Error of a refused token response quotes the whole body: the refresh token of a response without access_token, the access token of a cut-off one',
        "only #{quoted.inspect} were quoted")
