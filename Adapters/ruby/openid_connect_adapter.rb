# frozen_string_literal: true

# openid_connect 1.2.0 on rack-oauth2 1.21.3 (Debian's ruby-openid-connect, ruby-rack-oauth2) behind
# the adapter protocol: an OpenID Connect relying party, used as the gem's sample relying party
# (nov/openid_connect_sample_rp, which its README points to) uses it: discovery with
# OpenIDConnect::Discovery::Provider::Config.discover!, an OpenIDConnect::Client made from the
# discovered endpoints, authorization_uri(scope:, state:, nonce:), authorization_code= and
# access_token!, IdToken.decode(id_token, config.jwks) and verify!(issuer:, client_id:, nonce:),
# then the AccessToken's get and userinfo!. The gems keep no session: the tokens, when to
# refresh them (Client#refresh_token= and access_token!), and what to keep of a refresh are the
# application's; the adapter does the minimum (the profile lists those families under
# application_part). The gems read Time.now and take no clock: the profile runs this under
# libfaketime.

$LOAD_PATH.unshift(File.join(__dir__, 'lib'))

require 'json'
require 'openid_connect'
require 'securerandom'
require 'uri'
require 'oauth_conformance/adapter'

class OpenIDConnectAdapter
  def name = 'openid_connect (Ruby, rack-oauth2)'
  def version = "#{OpenIDConnect::VERSION} (rack-oauth2 #{Rack::OAuth2::VERSION}, json-jwt #{Gem.loaded_specs["json-jwt"]&.version})"
  def capabilities = %w[openid custom_ca]

  def initialize
    # The gems log through Logger.new(STDOUT); the protocol owns stdout.
    OpenIDConnect.logger = Rack::OAuth2.logger = Logger.new($stderr)
    # One HTTP configuration for every HTTPClient the gems make (discovery, the JWKS, the token
    # endpoint, the resource): trust the scenario's CA file alone when there is one, and bound
    # every exchange. OpenIDConnect.http_config takes its block once, so the block reads the
    # scenario's CA file when each client is made.
    OpenIDConnect.http_config do |http|
      http.connect_timeout = 5
      http.send_timeout = http.receive_timeout = 10
      if @ca_file
        http.ssl_config.clear_cert_store
        http.ssl_config.add_trust_ca(@ca_file)
      end
    end
  end

  def reset(environment)
    @environment = environment
    @ca_file = environment['ca_file']
    # SWD builds the discovery URL with URI::HTTPS unless told otherwise; the provider speaks
    # plain HTTP on loopback unless a scenario asks for TLS.
    SWD.url_builder = environment['issuer'].start_with?('https:') ? URI::HTTPS : URI::HTTP
    @config = @client = @token = @signed_in = @pending = nil
  end

  # The sample relying party: discover the provider once (Provider#config memoizes it), then the
  # authentication request with a fresh nonce, and a state.
  def sign_in_url
    @pending = { state: SecureRandom.hex(16), nonce: SecureRandom.hex(16) }
    client.authorization_uri(scope: [:openid], state: @pending[:state], nonce: @pending[:nonce])
  end

  # The sample relying party's authenticate: the code to access_token!, then the ID token decoded
  # with the provider's JWKS and verified for issuer, client_id and nonce. A refused ID token
  # keeps nothing of its response.
  def complete_sign_in(redirect_url)
    pending = @pending
    @pending = nil
    query = URI.decode_www_form(URI(redirect_url).query || '').to_h
    unless pending && query['state'] == pending[:state]
      raise OAuthConformance::ClientError.new(category: 'protocol', message: 'the state of the redirect is not the one this sign-in sent')
    end

    client.authorization_code = query['code']
    token = client.access_token!
    id_token = verified_id_token(token.id_token, pending[:nonce])
    keep(token)
    @signed_in = { 'iss' => id_token.iss, 'sub' => id_token.sub }
  end

  def identity = @signed_in

  # A call through the AccessToken (its HTTPClient signs it), after the application's refresh.
  def request(method, url, headers, body)
    token = fresh_token
    verb = method.downcase.to_sym
    arguments = verb == :get || verb == :delete ? { header: headers } : { header: headers, body: body }
    response = token.httpclient.request(verb, url, **arguments)
    [response.status, response.body]
  end

  def userinfo
    fresh_token.userinfo!.raw_attributes
  end

  def tokens
    @token && { access_token: @token[:token].access_token, refresh_token: @token[:token].refresh_token, expires_at: @token[:expires_at] }
  end

  def classify(error)
    case error
    when Rack::OAuth2::Client::Error
      # The token endpoint's §5.2 error (#response[:error]) and #status; 'Unknown' is the gem's
      # word for a body that is not JSON (client.rb:232), not a code.
      code = error.response[:error]
      code = nil if code.blank? || code == 'Unknown'
      OAuthConformance::ClientError.new(category: code ? nil : 'protocol', oauth_error: code, status: error.status,
                                        type: error.class.name, message: error.message)
    when OpenIDConnect::Unauthorized
      OAuthConformance::ClientError.new(category: 'authorization_required', status: error.status, type: error.class.name, message: error.message)
    when OpenIDConnect::HttpError
      OAuthConformance::ClientError.new(category: 'protocol', status: error.status, type: error.class.name, message: error.message)
    when HTTPClient::BadResponseError
      OAuthConformance::ClientError.new(category: 'protocol', status: error.res&.status, type: error.class.name, message: error.message)
    when OpenSSL::SSL::SSLError
      OAuthConformance::ClientError.new(category: 'tls', type: error.class.name, message: error.message)
    when SocketError, SystemCallError, HTTPClient::TimeoutError, HTTPClient::KeepAliveDisconnected, EOFError
      # The connection failed (HTTPClient raises KeepAliveDisconnected for a reset or a close
      # without an answer, after sending the request a second time).
      OAuthConformance::ClientError.new(category: 'transient', type: error.class.name, message: error.message)
    when NoMethodError, TypeError, ArgumentError, KeyError, NameError, ZeroDivisionError
      OAuthConformance::ClientError.new(category: 'unexpected', type: error.class.name, message: error.message)
    else
      # The gems' own refusals: a discovery document that fails validation, a token type it does
      # not take, a token response without access_token (AttrRequired::AttrMissing).
      OAuthConformance::ClientError.new(category: 'protocol', type: error.class.name, message: error.message)
    end
  end

  private

  def config
    @config ||= OpenIDConnect::Discovery::Provider::Config.discover!(@environment['openid_configuration_url'].delete_suffix('/.well-known/openid-configuration'))
  end

  def client
    @client ||= OpenIDConnect::Client.new(
      identifier: @environment['client_id'],
      secret: @environment['client_secret'],
      redirect_uri: @environment['redirect_uri'],
      authorization_endpoint: config.authorization_endpoint,
      token_endpoint: config.token_endpoint,
      userinfo_endpoint: config.userinfo_endpoint
    )
  end

  # IdToken.decode checks the signature with the JWKS; verify! the expiry, issuer, nonce and
  # audience. What they raise is the ID token's refusal; a crash stays a crash.
  def verified_id_token(jwt, nonce)
    id_token = OpenIDConnect::ResponseObject::IdToken.decode(jwt, config.jwks)
    id_token.verify!(issuer: config.issuer, client_id: @environment['client_id'], nonce: nonce)
    id_token
  rescue JSON::JWT::Exception, OpenIDConnect::ResponseObject::IdToken::InvalidToken, OpenIDConnect::ValidationFailed,
         AttrRequired::AttrMissing => e
    raise OAuthConformance::ClientError.new(category: 'id_token', type: e.class.name, message: "#{e.class}: #{e.message}")
  end

  # The application's token: the gems keep no expiry (AccessToken holds expires_in as sent), so
  # the application notes when it expires and, once it has, refreshes with the refresh_token
  # grant (Client#refresh_token=, access_token!), keeping what the refresh answers.
  def fresh_token
    raise OAuthConformance::ClientError.new(category: 'authorization_required', type: 'application', message: 'nobody is signed in') unless @token
    return @token[:token] unless @token[:expires_at] && Time.now.to_i >= @token[:expires_at]

    client.refresh_token = @token[:token].refresh_token
    keep(client.access_token!)[:token]
  end

  def keep(token)
    expires_in = token.expires_in
    @token = { token: token, expires_at: expires_in && (Time.now.to_i + expires_in.to_i) }
  end
end

OAuthConformance.serve(OpenIDConnectAdapter.new)
