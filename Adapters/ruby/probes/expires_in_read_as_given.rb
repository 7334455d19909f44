# frozen_string_literal: true

# Claim: the gem sets expires_at = Time.now + expires_in (access_token.rb:48-50) and calls a token
# expired only once expires_at < Time.now (access_token.rb:75). So expires_in -60 is expired on
# arrival (an application refreshing when expired? says so refreshes before every call), and at
# the very second of expiry a token is not yet expired: it goes out, and the gem does nothing
# with the 401 that comes back.
require_relative 'probe_server'

server = ProbeServer.new do |request, number|
  if request.path == '/token'
    json(200, { access_token: "at-#{number}", token_type: 'Bearer', expires_in: number == 1 ? -60 : 3600, refresh_token: 'rt-1' })
  else
    json(401, { error: 'invalid_token' }, 'WWW-Authenticate' => 'Bearer error="invalid_token"')
  end
end
client = oauth2_client(server.url)
negative = client.password.get_token('alice', 'wonderland')
puts "expires_in -60: expires_at = now #{negative.expires_at - Time.now.to_i}, expired? = #{negative.expired?}"
# The same second is what the claim is about: try again (at most 3 times) if the clock ticked.
now = expired_at_expiry = response = nil
3.times do
  now = Time.now.to_i
  at_expiry = OAuth2::AccessToken.from_hash(client, 'access_token' => 'at-dying', 'refresh_token' => 'rt-1', 'expires_at' => now)
  expired_at_expiry = at_expiry.expired?
  puts "a token whose expires_at is this very second: expired? = #{expired_at_expiry}"
  response = at_expiry.get("#{server.url}/resource", raise_errors: false)
  puts "sent anyway, it got HTTP #{response.status}; the gem sent no refresh"
  break if Time.now.to_i == now
end
server.stop
verdict(negative.expired? && !expired_at_expiry && response.status == 401 && Time.now.to_i == now,
        'expires_in -60 is expired on arrival, and at the second of expiry expired? is still false, so the dying token goes out and its 401 comes back unanswered',
        'expired? said otherwise (or the clock ticked during the probe)')
