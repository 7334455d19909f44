# frozen_string_literal: true

# Claim: the gem holds no session: when refresh! is refused (400 invalid_grant, or a 200 whose
# body is an error, client.rb:155-158), it raises OAuth2::Error with #code and leaves the
# AccessToken the application holds as it was (access_token.rb:82-90 builds a new one only on
# success): same refresh token, still expired, nothing marks the grant dead. Calling refresh!
# again, as an application that refreshes when expired? says so does, sends the refused token
# again.
require_relative 'probe_server'

server = ProbeServer.new do |_request, number|
  number.odd? ? json(400, { error: 'invalid_grant' }) : json(200, { error: 'invalid_grant' })
end
client = oauth2_client(server.url)
token = OAuth2::AccessToken.from_hash(client, 'access_token' => 'at-1', 'refresh_token' => 'rt-1',
                                              'expires_at' => Time.now.to_i - 10)
results = 2.times.map do |call|
  token.refresh!
  'refreshed'
rescue OAuth2::Error => e
  puts "refresh! no. #{call + 1}: OAuth2::Error code #{e.code.inspect}, status #{e.response.status}; " \
       "the token still holds refresh_token #{token.refresh_token}, expired? #{token.expired?}"
  e.code
end
server.stop
verdict(results == %w[invalid_grant invalid_grant] && token.refresh_token == 'rt-1' && token.expired?,
        'a refused refresh! leaves the token as it was, so the next refresh! sends the refused refresh token again',
        "refresh! answered #{results.inspect}")
