# frozen_string_literal: true

# Claim (the application's part): rack-oauth2 keeps no session. Each token response is a new
# AccessToken (rack/oauth2/access_token.rb:12-19) that holds expires_in as sent, with no expiry
# time and no expired?; one without refresh_token has none, and a refresh with it fails
# "'refresh_token' required."; a refused refresh raises Rack::OAuth2::Client::Error and leaves
# the token the application holds as it was; and that error keeps only the status and the parsed
# body (rack/oauth2/client/error.rb), so a Retry-After header never reaches the application.
require_relative 'oidc_provider'

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
