# frozen_string_literal: true

# Claim: access_token! takes a token response without id_token (the AccessToken's id_token is
# optional), and the sample relying party's next step, IdToken.decode(access_token.id_token,
# jwks), crashes inside json-jwt with NoMethodError (undefined method `count' for nil,
# json/jwt.rb:102) instead of refusing the sign-in.
require_relative 'oidc_provider'

provider = OIDCProvider.new do |_request, _number|
  json(200, { access_token: 'at-1', token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt-1' })
end
config, client = relying_party(provider)
client.authorization_code = 'code-1'
token = client.access_token!
puts "access_token! without id_token: accepted, #{token.class} with id_token #{token.id_token.inspect}"
crash = begin
  OpenIDConnect::ResponseObject::IdToken.decode(token.id_token, config.jwks)
  nil
rescue StandardError => e
  puts "IdToken.decode(nil, jwks) raised #{e.class}: #{e.message.lines.first.strip}"
  e
end
provider.stop
verdict(crash.is_a?(NoMethodError),
        'a sign-in without id_token is not refused: access_token! accepts it and IdToken.decode crashes with NoMethodError',
        "decode answered #{crash.inspect}")
