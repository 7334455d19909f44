# frozen_string_literal: true

# Claim (the application's part): the gem never decides to refresh, wait or share a refresh.
# AccessToken#get sends an expired token as it is (access_token.rb:105-108 only adds the
# header); refresh! is the application's to call, and nothing in the gem serializes it: two
# threads holding the same expired token each send a refresh. A client_credentials token has no
# refresh token, and refresh! raises 'A refresh_token is not available' (access_token.rb:83)
# instead of asking again. After a 429 with Retry-After the OAuth2::Error carries the header
# (#response.headers) and nothing stops the next refresh! from going out at once.
require_relative 'probe_server'

token_answers = [
  json(200, { access_token: 'at-2', token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt-1' }),
  json(200, { access_token: 'at-3', token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt-1' }),
  json(429, { error: 'slow_down' }, 'Retry-After' => '30'),
  json(200, { access_token: 'at-4', token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt-1' })
]
lock = Mutex.new
refreshes = 0
server = ProbeServer.new do |request, _number|
  if request.path == '/token'
    lock.synchronize { refreshes += 1 }
    sleep 0.2 # both threads' refreshes are under way together
    lock.synchronize { token_answers.shift }
  else
    json(200, { ok: true })
  end
end
client = oauth2_client(server.url)
expired = OAuth2::AccessToken.from_hash(client, 'access_token' => 'at-1', 'refresh_token' => 'rt-1', 'expires_at' => Time.now.to_i - 10)
response = expired.get("#{server.url}/resource")
sent_expired = response.response.env.request_headers['Authorization'] == 'Bearer at-1' && refreshes.zero?
puts "an expired token (expired? #{expired.expired?}) through AccessToken#get: sent as it is, #{refreshes} refreshes"

2.times.map { Thread.new { expired.refresh! } }.each(&:join)
both_refreshed = refreshes == 2
puts "two threads holding the same expired token, each calling refresh!: #{refreshes} refreshes"

credentials = OAuth2::AccessToken.from_hash(client, 'access_token' => 'at-cc', 'expires_at' => Time.now.to_i - 10)
refused = begin
  credentials.refresh!
  nil
rescue RuntimeError => e
  e.message
end
puts "an expired client_credentials token: refresh! raised #{refused.inspect}"

retry_after = nil
begin
  expired.refresh!
rescue OAuth2::Error => e
  retry_after = e.response.headers['retry-after']
  puts "a refresh answered 429: OAuth2::Error #{e.code.inspect} with Retry-After #{retry_after.inspect}"
end
before = refreshes
again = expired.refresh!
puts "refresh! again at once: sent (#{refreshes - before} request), got #{again.token}"
server.stop
verdict(sent_expired && both_refreshed && refused == 'A refresh_token is not available' && retry_after == '30' && refreshes == before + 1,
        'the gem never refreshes, waits or shares a refresh by itself: an expired token goes out as it is, concurrent refresh! calls each go out, a client_credentials token cannot be renewed by refresh!, and Retry-After is only handed to the application',
        'the gem did some of it itself')
