# frozen_string_literal: true

# Claim: decoding with the provider's JWKS takes the key whose kid equals the header's (json-jwt
# jose.rb:28-31), so an ID token without kid, or MACed HS256 with the client secret, fails
# KidNotFound even though the set holds the one RSA key; and the discovery response fetches the
# JWKS once and keeps it (discovery/provider/config/response.rb:83-88), so a token signed with a
# rotated key (a new kid) fails KidNotFound without a second fetch.
require_relative 'oidc_provider'

provider = OIDCProvider.new { |_request, _number| json(404, {}) }
config, _client = relying_party(provider)
puts "a token with kid key-1: #{accepted?(config, provider.id_token) == true ? 'accepted' : 'refused'}"
without_kid = accepted?(config, provider.id_token(kid: nil))
puts "the same token without kid: #{without_kid}"
hs256 = accepted?(config, provider.id_token({}, kid: nil, key: 'probe-secret-of-32-bytes-or-more!!', alg: :HS256))
puts "a correct HS256 token MACed with the client secret: #{hs256}"
rotated = accepted?(config, provider.id_token({}, kid: 'key-2', key: OpenSSL::PKey::RSA.new(2048)))
puts "a token signed by a rotated key (kid key-2): #{rotated}; JWKS fetches so far: #{provider.jwks_fetches}"
provider.stop
kid_not_found = [without_kid, hs256, rotated].all? { |result| result.to_s.include?('KidNotFound') }
verdict(kid_not_found && provider.jwks_fetches == 1,
        'a token without kid, an HS256 token and a token with a rotated kid all fail KidNotFound, and the JWKS is fetched once only',
        "results: #{[without_kid, hs256, rotated].inspect}, #{provider.jwks_fetches} JWKS fetches")
