# frozen_string_literal: true

# Claim: IdToken#verify! checks exp, iss, nonce and aud only (response_object/id_token.rb:24-35):
# an ID token with a wrong at_hash, an azp naming another party, several audiences and no azp,
# or an iat an hour ahead is accepted by the sample relying party's decode + verify!.
require_relative 'oidc_provider'

provider = OIDCProvider.new { |_request, _number| json(404, {}) }
config, _client = relying_party(provider)
now = Time.now.to_i
cases = {
  'a wrong at_hash' => { at_hash: 'AAAAAAAAAAAAAAAAAAAAAA' },
  'azp naming another party' => { azp: 'another-app' },
  'several audiences, no azp' => { aud: %w[probe-client another-app] },
  'iat an hour ahead' => { iat: now + 3600 },
  'iat 30 s ahead' => { iat: now + 30 }
}
accepted = cases.count do |what, claims|
  result = accepted?(config, provider.id_token(claims))
  puts "an ID token with #{what}: #{result == true ? 'accepted' : result}"
  result == true
end
control = accepted?(config, provider.id_token({ nonce: 'another-nonce' }))
puts "control, a wrong nonce: #{control}"
provider.stop
verdict(accepted == cases.size && control != true,
        'verify! accepts ID tokens with a wrong at_hash, a foreign azp, several audiences without azp, and an iat in the future; it checks exp, iss, nonce and aud only',
        "only #{accepted} of #{cases.size} were accepted")
