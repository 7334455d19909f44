# frozen_string_literal: true

# Claim: the gem sets expires_at = Time.now + expires_in (access_token.rb:48-50) and calls a token
# expired only once expires_at < Time.now (access_token.rb:75).
#   sign-in (the default): expires_in -60 is expired on arrival (an application refreshing when
#     expired? says so refreshes before every call), and at the very second of expiry a token is
#     not yet expired: it goes out, and the gem does nothing with the 401 that comes back.
#   refresh: a refresh response is made a token the same way (refresh! calls Client#get_token,
#     access_token.rb:86, which builds it with from_hash, client.rb:159): a restored token that
#     has expired is refreshed, the refresh answers -60, and the new token is expired on arrival,
#     so the application's check before each of the next calls refreshes again.
require_relative 'probe_server'

if ARGV.first == 'refresh'
  issued = 1 # at-1 is the restored token; the provider issues at-2 onwards
  server = ProbeServer.new do |request, _number|
    if request.path == '/token'
      json(200, { access_token: "at-#{issued += 1}", token_type: 'Bearer', expires_in: -60, refresh_token: 'rt-1' })
    else
      json(200, { ok: true })
    end
  end
  client = oauth2_client(server.url)
  token = OAuth2::AccessToken.from_hash(client, 'access_token' => 'at-1', 'refresh_token' => 'rt-1',
                                                'expires_at' => Time.now.to_i - 1)
  puts "restored at-1, expired? = #{token.expired?}"
  sent = (1..3).map do |call|
    # The application's minimum, as the adapter does: refresh! when expired? says so, then call.
    token = token.refresh! if token.expired?
    header = token.get("#{server.url}/resource").response.env.request_headers['Authorization']
    puts "call #{call} went out with '#{header}'; that token's expires_at = now #{token.expires_at - Time.now.to_i}, expired? = #{token.expired?}"
    header
  end
  server.stop
  verdict(sent == ['Bearer at-2', 'Bearer at-3', 'Bearer at-4'],
          'a refresh answered expires_in -60 gives a token expired? on arrival, so the application refreshes again before every call (3 refreshes for 3 calls)',
          "the calls went out with #{sent.inspect}")
end

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
