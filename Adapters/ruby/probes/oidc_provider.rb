# frozen_string_literal: true

# A throwaway OpenID Connect provider for the probes, on ProbeServer: its discovery document, a
# JWKS with one RSA key (kid key-1), and whatever else the probe's block answers (the token and
# userinfo endpoints). id_token signs the claims it is given, RS256, with that key.
require_relative 'probe_server'
require 'openid_connect'

OpenIDConnect.logger = Rack::OAuth2.logger = Logger.new($stderr)
SWD.url_builder = URI::HTTP # the probe's provider speaks plain HTTP on loopback

class OIDCProvider
  attr_reader :jwks_fetches

  def initialize(&endpoints)
    @key = OpenSSL::PKey::RSA.new(2048)
    @jwks_fetches = 0
    @server = ProbeServer.new do |request, number|
      case request.path
      when '/.well-known/openid-configuration' then json(200, discovery)
      when '/jwks'
        @jwks_fetches += 1
        json(200, { keys: [JSON::JWK.new(@key.public_key, kid: 'key-1', use: 'sig', alg: 'RS256')] })
      else endpoints.call(request, number)
      end
    end
  end

  def issuer = @server.url

  def stop = @server.stop

  def discovery
    { issuer: issuer, authorization_endpoint: "#{issuer}/authorize", token_endpoint: "#{issuer}/token",
      userinfo_endpoint: "#{issuer}/userinfo", jwks_uri: "#{issuer}/jwks", response_types_supported: ['code'],
      subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'] }
  end

  # An ID token for alice and probe-client, nonce n-1, valid ten minutes, with claims overridden.
  def id_token(claims = {}, kid: 'key-1', key: @key, alg: :RS256)
    now = Time.now.to_i
    jwt = JSON::JWT.new({ iss: issuer, sub: 'alice', aud: 'probe-client', exp: now + 600, iat: now, nonce: 'n-1' }.merge(claims))
    jwt.kid = kid if kid
    jwt.sign(key, alg).to_s
  end
end

# The sample relying party's objects: the discovered configuration and a client made from it.
def relying_party(provider)
  config = OpenIDConnect::Discovery::Provider::Config.discover!(provider.issuer)
  client = OpenIDConnect::Client.new(identifier: 'probe-client', secret: 'probe-secret-of-32-bytes-or-more!!',
                                     redirect_uri: 'http://127.0.0.1/callback',
                                     authorization_endpoint: config.authorization_endpoint,
                                     token_endpoint: config.token_endpoint, userinfo_endpoint: config.userinfo_endpoint)
  [config, client]
end

# The sample relying party's check of a sign-in's ID token: decode with the JWKS, then verify!.
def accepted?(config, jwt)
  OpenIDConnect::ResponseObject::IdToken.decode(jwt, config.jwks).verify!(issuer: config.issuer, client_id: 'probe-client', nonce: 'n-1')
rescue JSON::JWT::Exception, OpenIDConnect::ResponseObject::IdToken::InvalidToken => e
  "refused: #{e.class}: #{e.message}"
end
