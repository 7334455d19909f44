# frozen_string_literal: true

# The oauth2 gem 1.4.4 (Debian's ruby-oauth2, on Faraday 1.1.0) behind the adapter protocol,
# used as its README shows: an OAuth2::Client, a token from one of its strategies (auth_code,
# password, client_credentials), and calls through the AccessToken (#request, #get). The gem
# never decides to refresh: it offers AccessToken#expired? and #refresh!, and the application
# (this adapter) refreshes an expired token before a call with them, nothing more (the profile
# lists that under application_part). The gem reads Time.now and takes no clock, so the profile
# runs this under libfaketime.

$LOAD_PATH.unshift(File.join(__dir__, 'lib'))

require 'json'
require 'oauth2'
require 'oauth2/version' # not loaded by require 'oauth2' in 1.4.4
require 'uri'
require 'oauth_conformance/adapter'

class OAuth2GemAdapter
  def name = 'oauth2 (Ruby gem)'
  def version = "#{OAuth2::Version} (Faraday #{Faraday::VERSION})"

  # No refresh_on_401 and no proactive_refresh: the gem does neither.
  def capabilities = %w[authorization_code restart custom_ca concurrency]

  def reset(environment)
    @environment = environment
    @token_file = File.join(environment['storage_dir'], 'oauth2-gem-token.json')
    @client = client
    @token = nil
    @lock = Mutex.new # guards only the application's variable, as any threaded application would
  end

  # The client as the README makes it, with the provider's own endpoints, the CA file the
  # scenario gives (Faraday's ssl option) and bounded Faraday timeouts. The redirect_uri goes to
  # authorize_url and get_token, as in the README: given to the client too, the gem would send it
  # twice in the token request (strategy/auth_code.rb:28 merges both).
  def client
    env = @environment
    ssl = env['ca_file'] ? { ca_file: env['ca_file'] } : {}
    OAuth2::Client.new(env['client_id'], env['client_secret'],
                       site: env['issuer'],
                       authorize_url: env['authorization_endpoint'],
                       token_url: env['token_endpoint'],
                       ssl: ssl,
                       connection_opts: { request: { timeout: 10, open_timeout: 5 } })
  end

  # The README's strategies: client.password.get_token(username, password),
  # client.client_credentials.get_token; refresh! is AccessToken's.
  def login(grant)
    case grant
    when 'password' then keep(@client.password.get_token(@environment['username'], @environment['password']))
    when 'client_credentials' then keep(@client.client_credentials.get_token)
    when 'refresh_token' then keep(current_token!.refresh!)
    else raise OAuthConformance::ClientError.new(category: 'unsupported', message: "no #{grant} grant")
    end
  end

  # The README: client.auth_code.authorize_url(redirect_uri: ...). It shows no state and no PKCE,
  # and the gem adds neither.
  def authorization_url
    @client.auth_code.authorize_url(redirect_uri: @environment['redirect_uri'])
  end

  # The README: client.auth_code.get_token('code_value', redirect_uri: ...), the code read from
  # the redirect by the application.
  def complete_authorization(redirect_url)
    code = URI.decode_www_form(URI(redirect_url).query || '').to_h['code']
    keep(@client.auth_code.get_token(code, redirect_uri: @environment['redirect_uri']))
  end

  # A call through the AccessToken (README: token.get(...)), refreshed first with refresh! when
  # expired? says so: the minimum the gem's AccessToken offers an application. raise_errors: false
  # (a documented request option) so that a 4xx or 5xx comes back as the response it is.
  def request(method, url, headers, body)
    token = fresh_token
    response = token.request(method.downcase.to_sym, url, headers: headers, body: body, raise_errors: false)
    [response.status, response.body]
  end

  def restart
    # A relaunched application: a new client and a token from what it saved, nothing from memory.
    @client = client
    saved = File.exist?(@token_file) ? JSON.parse(File.read(@token_file)) : nil
    @token = saved && OAuth2::AccessToken.from_hash(@client, saved)
  end

  # README: "If you have an existing Access Token for a user, you can initialize an instance
  # using ... from_hash".
  def restore_tokens(saved)
    hash = { 'access_token' => saved['access_token'], 'refresh_token' => saved['refresh_token'],
             'expires_at' => saved['expires_at'], 'token_type' => saved['token_type'], 'scope' => saved['scope'] }.compact
    keep(OAuth2::AccessToken.from_hash(@client, hash))
  end

  def tokens
    token = @lock.synchronize { @token }
    token && { access_token: token.token, refresh_token: token.refresh_token, expires_at: token.expires_at }
  end

  def classify(error)
    case error
    when OAuth2::Error
      # The gem's error: the §5.2 code (#code) and the response (#response.status).
      status = error.response&.status
      code = error.code.is_a?(String) && !error.code.empty? ? error.code : nil
      category = code ? nil : (status && status >= 400 ? 'oauth_error' : 'protocol')
      OAuthConformance::ClientError.new(category: category, oauth_error: code, status: status, type: 'OAuth2::Error', message: error.message)
    when Faraday::SSLError
      OAuthConformance::ClientError.new(category: 'tls', type: error.class.name, message: error.message)
    when Faraday::ConnectionFailed, Faraday::TimeoutError
      OAuthConformance::ClientError.new(category: 'transient', type: error.class.name, message: error.message)
    when NoMethodError, TypeError, ArgumentError, KeyError, NameError, ZeroDivisionError
      OAuthConformance::ClientError.new(category: 'unexpected', type: error.class.name, message: error.message)
    when RuntimeError
      # refresh! raises 'A refresh_token is not available' (access_token.rb:83) on purpose: the
      # application must sign in again.
      category = error.message.include?('refresh_token is not available') ? 'authorization_required' : 'protocol'
      OAuthConformance::ClientError.new(category: category, type: error.class.name, message: error.message)
    else
      OAuthConformance::ClientError.new(category: 'protocol', type: error.class.name, message: error.message)
    end
  end

  private

  # The token the application holds, refreshed first if the gem says it has expired.
  def fresh_token
    token = current_token!
    return token unless token.expired?

    keep(token.refresh!)
  end

  # The application holds no token after a failed sign-in: the gem has nothing to call with, and
  # the application must sign the user in.
  def current_token!
    @lock.synchronize { @token } or
      raise OAuthConformance::ClientError.new(category: 'authorization_required', type: 'application',
                                             message: 'the application holds no access token: sign in first')
  end

  # The application keeps the gem's token and saves it (AccessToken#to_hash) for the next launch.
  def keep(token)
    @lock.synchronize { @token = token }
    File.write(@token_file, JSON.generate(token.to_hash))
    token
  end
end

OAuthConformance.serve(OAuth2GemAdapter.new)
