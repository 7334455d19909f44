# frozen_string_literal: true

# Claim (the application's part): rack-oauth2 keeps no session. Each token response is a new
# AccessToken (rack/oauth2/access_token.rb:12-19) that holds expires_in as sent, with no expiry
# time and no expired?; one without refresh_token has none, and a refresh with it fails
# "'refresh_token' required."; a refused refresh raises Rack::OAuth2::Client::Error and leaves
# the token the application holds as it was; and that error keeps only the status and the parsed
# body (rack/oauth2/client/error.rb), so a Retry-After header never reaches the application.
#   refresh (argument): a refresh response is a new AccessToken the same way, expires_in as sent;
#     with 0, -60 or "soon" the application's expiry, now + expires_in.to_i (the adapter's), is
#     due at once, so the application following it refreshes before each of the next calls.
require_relative 'oidc_provider'

if ARGV.first == 'refresh'
  lifetimes = [0, -60, 'soon']
  lifetime = nil
  issued = 0
  provider = OIDCProvider.new do |request, _number|
    next json(200, { ok: true }) unless request.path == '/token'

    form = URI.decode_www_form(request.body || '').to_h
    issued += 1
    json(200, { access_token: "at-#{issued}", token_type: 'Bearer', refresh_token: 'rt-1',
                expires_in: form['grant_type'] == 'refresh_token' ? lifetime : 3600 })
  end
  _config, client = relying_party(provider)
  refreshes = lifetimes.to_h do |value|
    lifetime = value
    puts "-- every refresh answered expires_in #{value.inspect}"
    client.authorization_code = 'code-1'
    token = client.access_token!
    expiry = nil # the sign-in's token is taken as expired, so that call 1 refreshes
    count = 0
    (1..3).each do |call|
      # The application's expiry, as the adapter keeps it: due once now >= now + expires_in.to_i.
      if expiry.nil? || Time.now.to_i >= expiry
        client.refresh_token = token.refresh_token
        token = client.access_token!
        expiry = Time.now.to_i + token.expires_in.to_i
        count += 1
        puts "call #{call}: refreshed; the new AccessToken holds expires_in #{token.expires_in.inspect}, " \
             "responds to expired? #{token.respond_to?(:expired?)}, to expires_at #{token.respond_to?(:expires_at)}"
      end
      token.get("#{provider.issuer}/resource")
    end
    [value, count]
  end
  provider.stop
  verdict(refreshes.values.all?(3),
          'a refresh response is a new AccessToken that keeps expires_in as sent (0, -60, "soon") with no expiry time and no expired?; the application\'s expiry, now + expires_in.to_i, is due at once, so it refreshes before every call (3 refreshes for 3 calls)',
          "refreshes for 3 calls: #{refreshes.inspect}")
end

answers = [
  json(200, { access_token: 'at-1', token_type: 'Bearer', expires_in: 'soon', refresh_token: 'rt-1' }),
  json(200, { access_token: 'at-2', token_type: 'Bearer', expires_in: 3600 }),
  json(400, { error: 'invalid_grant' }),
  json(429, { error: 'slow_down' }, 'Retry-After' => '30')
]
provider = OIDCProvider.new { |_request, _number| answers.shift }
_config, client = relying_party(provider)
client.authorization_code = 'code-1'
first = client.access_token!
puts "a token answered with expires_in \"soon\": expires_in #{first.expires_in.inspect}, responds to expired? #{first.respond_to?(:expired?)}"
client.refresh_token = first.refresh_token
second = client.access_token!
puts "a refresh answered without refresh_token: the new AccessToken's refresh_token is #{second.refresh_token.inspect}"
missing = begin
  client.refresh_token = second.refresh_token
  client.access_token!
  nil
rescue StandardError => e
  puts "refreshing with it: #{e.class}: #{e.message}"
  e.message
end
client.refresh_token = first.refresh_token
refused = begin
  client.access_token!
rescue Rack::OAuth2::Client::Error => e
  puts "a refused refresh: #{e.class} status #{e.status}, #{e.response[:error]}; the application's token still holds #{first.access_token}/#{first.refresh_token}"
  e
end
busy = begin
  client.access_token!
rescue Rack::OAuth2::Client::Error => e
  puts "a 429 with Retry-After: 30: #{e.class} status #{e.status}; what it keeps: #{(e.instance_variables - [:@__cause__]).inspect}"
  e
end
provider.stop
verdict(!first.respond_to?(:expired?) && first.expires_in == 'soon' && second.refresh_token.nil? &&
        missing == "'refresh_token' required." && refused.response[:error] == 'invalid_grant' && first.refresh_token == 'rt-1' &&
        busy.status == 429 && !busy.respond_to?(:headers),
        'rack-oauth2 keeps no session: expires_in as sent and no expired?, a refresh without refresh_token leaves none, a refused refresh leaves the held token as it was, and Retry-After is dropped from the error',
        'rack-oauth2 kept some of it itself')
