# frozen_string_literal: true

# Claim: Client#request follows a 307 from the token endpoint like any other (client.rb:106-121)
# and posts the same form, client_secret and password included, to the other origin; on a
# cross-origin hop it removes only an Authorization header (sanitize_redirect_options,
# client.rb:231-242).
require_relative 'probe_server'

other = ProbeServer.new { |_request, _number| json(200, { access_token: 'at-elsewhere', token_type: 'Bearer' }) }
server = ProbeServer.new { |_request, _number| [307, { 'Location' => "#{other.url}/token" }, ''] }
received = []
other_describe = other.method(:describe)
other.define_singleton_method(:describe) do |request|
  received << URI.decode_www_form(request.body || '').to_h
  other_describe.call(request)
end
client = oauth2_client(server.url)
token = client.password.get_token('alice', 'wonderland')
puts "the password grant answered by a 307 to #{other.url}: the gem got #{token.token} from there"
server.stop
other.stop
form = received.first || {}
verdict(form['client_secret'] == 'probe-secret' && form['password'] == 'wonderland',
        'a 307 from the token endpoint is followed with the same form: client_secret and password reach the other origin',
        "the other origin got #{form.keys.inspect}")
