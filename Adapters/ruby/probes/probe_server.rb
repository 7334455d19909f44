# frozen_string_literal: true

# A throwaway provider for the probes: a WEBrick server on 127.0.0.1 (port 0) on a thread of the
# probe, answering each request with what the probe's handler returns ([status, headers, body]
# or a raw string written to the socket), and printing each request it got (method, path,
# Authorization, the token request's form) so that the probe's output shows what the library
# sent. A watchdog ends the probe after 20 s whatever happens.

require 'json'
require 'uri'
require 'webrick'

$stdout.sync = true

Thread.new do
  sleep 20
  puts 'not confirmed: the probe did not finish within 20 s'
  exit!(1)
end

class ProbeServer
  attr_reader :url

  def initialize(&handler)
    @number = 0
    @lock = Mutex.new
    @server = WEBrick::HTTPServer.new(BindAddress: '127.0.0.1', Port: 0, Logger: WEBrick::Log.new(File::NULL),
                                      AccessLog: [])
    @url = "http://127.0.0.1:#{@server.config[:Port]}"
    @server.mount_proc('/') do |request, response|
      number = @lock.synchronize { @number += 1 }
      puts "  server #{@url} ##{number}: #{describe(request)}"
      status, headers, body = handler.call(request, number)
      response.status = status
      (headers || {}).each { |name, value| response[name] = value }
      response.body = body.is_a?(String) ? body : JSON.generate(body)
    end
    @thread = Thread.new { @server.start }
  end

  def stop
    @server.shutdown
    @thread.join(5)
  end

  def describe(request)
    text = "#{request.request_method} #{request.unparsed_uri}"
    authorization = request['Authorization']&.sub(/\ABasic .*/, 'Basic ***') # the client's secret stays out of the output
    text += " Authorization: #{authorization}" if authorization
    if request.request_method == 'POST'
      form = URI.decode_www_form(request.body || '')
      text += ' ' + form.map { |name, value| "#{name}=#{name == 'client_secret' || name == 'password' ? '***' : value}" }.join(' ')
    end
    text
  end
end

def json(status, body, headers = {})
  [status, { 'Content-Type' => 'application/json' }.merge(headers), body]
end

# The client as the gem's README makes it, for a provider at url.
def oauth2_client(url)
  require 'oauth2'
  OAuth2::Client.new('probe-client', 'probe-secret', site: url, authorize_url: "#{url}/authorize",
                                                     token_url: "#{url}/token")
end

# The probe's last line and exit status: confirmed (0) or not confirmed (1).
def verdict(confirmed, claim, otherwise)
  if confirmed
    puts "confirmed: #{claim}"
    exit!(0)
  end
  puts "not confirmed: #{otherwise}"
  exit!(1)
end
