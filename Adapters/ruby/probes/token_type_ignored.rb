# frozen_string_literal: true

# Claim: the gem never reads token_type: AccessToken formats every token with its header_format,
# 'Bearer %s' by default (access_token.rb:52 and 147), so a token of type mac, N_A or DPoP
# is taken and sent as a Bearer token.
#   sign-in (the default): the token comes from client_credentials.get_token.
#   refresh: a restored Bearer token that has expired is refreshed (refresh!, access_token.rb:
#     82-90) and the refresh answers mac, N_A or DPoP; the new token is built by the same
#     Client#get_token (client.rb:159) and even given the old token's options (access_token.rb:87),
#     so it goes out as Bearer too.
require_relative 'probe_server'

refresh = ARGV.first == 'refresh'
types = %w[mac N_A DPoP]
issued = 0
server = ProbeServer.new do |request, _number|
  if request.path == '/token'
    issued += 1
    json(200, { access_token: "at-new-#{issued}", token_type: types[issued - 1], expires_in: 3600 })
  else
    json(200, { ok: true })
  end
end
client = oauth2_client(server.url)

# The token of the given type, as the application gets it in this mode.
def token_of_type(client, refresh)
  return client.client_credentials.get_token unless refresh

  restored = OAuth2::AccessToken.from_hash(client, 'access_token' => 'at-old', 'token_type' => 'Bearer',
                                                   'refresh_token' => 'rt-1', 'expires_at' => Time.now.to_i - 1)
  restored.refresh!
end

sent_as_bearer = types.count do |type|
  token = token_of_type(client, refresh)
  response = token.get("#{server.url}/resource")
  sent = response.response.env.request_headers['Authorization']
  puts "#{refresh ? 'refresh' : 'sign-in'} answered token_type #{type}: taken (#{token.token}, params #{token.params.inspect}); " \
       "the call went out with Authorization: #{sent}"
  sent == "Bearer #{token.token}"
end
server.stop
verdict(sent_as_bearer == types.size,
        refresh ? 'a refresh answered with a token of type mac, N_A or DPoP is taken and the new token sent as a Bearer token'
                : 'a token of type mac, N_A or DPoP is taken and sent as a Bearer token',
        "only #{sent_as_bearer} of #{types.size} went out as Bearer")
