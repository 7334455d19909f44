# frozen_string_literal: true

# The tokens sign-in: the README's "If you have an existing Access Token for a user, you can
# initialize an instance using ... from_hash" gives the gem a saved session. A restored token that
# is still valid is sent as it is; one that has expired is sent as it is too, since the gem never
# refreshes by itself (access_token.rb:105-108): the application's refresh! (access_token.rb:82-90),
# when expired? says so, gets the new one.
require_relative 'probe_server'

server = ProbeServer.new do |request, _number|
  if request.path == '/token'
    json(200, { access_token: 'at-2', token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt-2' })
  else
    json(200, { ok: true })
  end
end
client = oauth2_client(server.url)
sent = %w[valid expired].to_h do |which|
  expires_at = Time.now.to_i + (which == 'valid' ? 3600 : -100)
  token = OAuth2::AccessToken.from_hash(client, 'access_token' => 'at-1', 'refresh_token' => 'rt-1', 'expires_at' => expires_at)
  header = token.get("#{server.url}/resource").response.env.request_headers['Authorization']
  puts "a restored #{which} token (expired? #{token.expired?}): AccessToken#get sent '#{header}'"
  [which, [token, header]]
end
refreshed = sent['expired'][0].refresh!
puts "the application's refresh! of the expired one: #{refreshed.token}, refresh_token #{refreshed.refresh_token}"
server.stop
verdict(sent['valid'][1] == 'Bearer at-1' && sent['expired'][1] == 'Bearer at-1' && refreshed.token == 'at-2',
        "a token restored with from_hash is used as it is, expired or not; refreshing it is the application's refresh!",
        "the calls went out with #{sent.transform_values(&:last).inspect}")
