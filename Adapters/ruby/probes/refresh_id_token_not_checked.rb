# frozen_string_literal: true

# Claim: a refresh through the gem (Client#refresh_token=, access_token!) builds an
# OpenIDConnect::AccessToken from the answer (openid_connect/client.rb:28-39) whose id_token
# nobody decodes or compares: an ID token naming another sub and another issuer comes back
# without a word, and the gem's sample relying party checks only the sign-in's ID token.
require_relative 'oidc_provider'

provider = nil
provider = OIDCProvider.new do |request, _number|
  form = URI.decode_www_form(request.body || '').to_h
  claims = form['grant_type'] == 'refresh_token' ? { sub: 'mallory', iss: 'https://attacker.example' } : {}
  json(200, { access_token: "at-#{form['grant_type']}", token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt-1',
              id_token: provider.id_token(claims) })
end
_config, client = relying_party(provider)
client.authorization_code = 'code-1'
client.access_token!
client.refresh_token = 'rt-1'
refreshed = client.access_token!
claims = JSON::JWT.decode(refreshed.id_token, :skip_verification)
puts "the refresh answered an ID token for sub #{claims[:sub]} from #{claims[:iss]}: access_token! returned #{refreshed.access_token} without a word"
provider.stop
verdict(refreshed.access_token == 'at-refresh_token' && claims[:sub] == 'mallory',
        'a refresh whose ID token names another user and issuer is accepted by access_token!, its ID token never checked',
        'the refresh was refused')
