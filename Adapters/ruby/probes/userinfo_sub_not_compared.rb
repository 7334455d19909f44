# frozen_string_literal: true

# Claim: AccessToken#userinfo! returns whatever claims the userinfo endpoint sends
# (openid_connect/access_token.rb:11-16): a response about another sub than the signed-in user's
# is handed to the application without a word (OIDC Core §5.3.2 asks the client to compare).
require_relative 'oidc_provider'

provider = nil
provider = OIDCProvider.new do |request, _number|
  if request.path == '/token'
    json(200, { access_token: 'at-1', token_type: 'Bearer', expires_in: 3600, id_token: provider.id_token })
  else
    json(200, { sub: 'mallory', name: 'Mallory' })
  end
end
config, client = relying_party(provider)
client.authorization_code = 'code-1'
token = client.access_token!
id_token = OpenIDConnect::ResponseObject::IdToken.decode(token.id_token, config.jwks)
id_token.verify!(issuer: config.issuer, client_id: 'probe-client', nonce: 'n-1')
puts "signed in: sub #{id_token.sub}"
info = token.userinfo!
puts "userinfo! returned sub #{info.sub}, name #{info.name}: no error"
provider.stop
verdict(id_token.sub == 'alice' && info.sub == 'mallory',
        "userinfo! hands over the claims of another sub than the ID token's without a word",
        'userinfo! refused the other user')
