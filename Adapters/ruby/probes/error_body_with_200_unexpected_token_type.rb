# frozen_string_literal: true

# Claim: a 200 whose body is an RFC 6749 §5.2 error is read as a token response without
# token_type: OpenIDConnect::Client raises OpenIDConnect::Exception "Unexpected Token Type: "
# (openid_connect/client.rb:28-36), a message without the code, for a sign-in and a refresh alike.
require_relative 'oidc_provider'

provider = OIDCProvider.new { |_request, _number| json(200, { error: 'invalid_grant', error_description: 'refused' }) }
_config, client = relying_party(provider)
raised = [->(c) { c.authorization_code = 'code-1' }, ->(c) { c.refresh_token = 'rt-1' }].map do |grant|
  grant.call(client)
  client.access_token!
  nil
rescue StandardError => e
  puts "a 200 with {\"error\":\"invalid_grant\"}: #{e.class}: #{e.message.inspect}"
  e
end
provider.stop
verdict(raised.all? { |e| e.is_a?(OpenIDConnect::Exception) && e.message == 'Unexpected Token Type: ' },
        'a 200 error body is raised as OpenIDConnect::Exception "Unexpected Token Type: ", without its code, for a sign-in and a refresh',
        "raised #{raised.inspect}")
