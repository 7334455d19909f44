# frozen_string_literal: true

# Claim: the gem never reads token_type: AccessToken formats every token with its header_format,
# 'Bearer %s' by default (access_token.rb:52 and 147), so a token of type mac, N_A or DPoP
# is taken and sent as a Bearer token.
require_relative 'probe_server'

types = %w[mac N_A DPoP]
server = ProbeServer.new do |request, number|
  if request.path == '/token'
    json(200, { access_token: "at-#{number}", token_type: types[(number - 1) / 2], expires_in: 3600 })
  else
    json(200, { ok: true })
  end
end
client = oauth2_client(server.url)
sent_as_bearer = types.count do |type|
  token = client.client_credentials.get_token
  response = token.get("#{server.url}/resource")
  sent = response.response.env.request_headers['Authorization']
  puts "token_type #{type}: taken; the call went out with Authorization: #{sent}"
  sent.start_with?('Bearer ')
end
server.stop
verdict(sent_as_bearer == types.size,
        'a token of type mac, N_A or DPoP is taken and sent as a Bearer token',
        "only #{sent_as_bearer} of #{types.size} went out as Bearer")
