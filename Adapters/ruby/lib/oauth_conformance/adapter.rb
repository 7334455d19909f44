# frozen_string_literal: true

# The OAuthConformance adapter protocol for Ruby client libraries (docs/adapter-protocol.md): one
# JSON message a line on stdin, one JSON answer a line on stdout. A library adapter is an object
# with the operations its library can do (reset, login, authorization_url,
# complete_authorization, request, restart, tokens, restore_tokens, sign_in_url,
# complete_sign_in, userinfo, identity) and a classify method that turns what the library raised
# into a ClientError; OAuthConformance.serve(adapter) does the rest. An operation the adapter
# lacks answers `unsupported`.
#
# An operation that raises is the library's outcome (ok: false), classified; a message the
# adapter cannot handle at all (reset, a bug of its own) is a fault, which ends the scenario as
# an error verdict.

require 'json'

module OAuthConformance
  PROTOCOL = 1

  # An error as the protocol reports it: what the library surfaced (oauth_error, status, type,
  # message) and, for what neither code nor status tells, a category.
  class ClientError < StandardError
    attr_reader :fields

    def initialize(category: nil, message:, oauth_error: nil, status: nil, type: nil)
      super(message)
      @fields = { category: category, oauth_error: oauth_error, status: status, type: type, message: message }.compact
    end
  end

  # The operations that answer an outcome, and how a success is answered.
  OUTCOMES = {
    'login' => ->(adapter, m) { adapter.login(m['grant']); { ok: true, status: 200 } },
    'complete_authorization' => ->(adapter, m) { adapter.complete_authorization(m['redirect_url']); { ok: true, status: 200 } },
    'complete_sign_in' => ->(adapter, m) { adapter.complete_sign_in(m['redirect_url']); { ok: true, status: 200 } },
    'restore_tokens' => ->(adapter, m) { adapter.restore_tokens(m); { ok: true } },
    'restart' => ->(adapter, _m) { adapter.restart; { ok: true } },
    'userinfo' => ->(adapter, _m) { { ok: true, status: 200, body: JSON.generate(adapter.userinfo) } },
    'request' => lambda do |adapter, m|
      status, body = adapter.request(m['method'], m['url'], m['headers'] || {}, m['body'])
      { ok: true, status: status, body: body }
    end
  }.freeze

  module_function

  def serve(adapter)
    # The protocol owns the real stdout; anything the library prints goes to stderr.
    protocol = $stdout.dup
    $stdout.reopen($stderr)
    protocol.sync = true
    $stderr.sync = true
    write = Mutex.new
    $stdin.each_line do |line|
      next if line.strip.empty?

      message = JSON.parse(line)
      op = message['op']
      warn "adapter: <- #{op}"
      answer = begin
        handle(adapter, message)
      rescue StandardError, ScriptError => e
        { fault: "adapter fault in #{op}: #{e.class}: #{e.message}\n#{e.backtrace&.first(8)&.join("\n")}" }
      end
      answer[:id] = message['id']
      write.synchronize { protocol.puts(JSON.generate(answer)) }
      break if op == 'shutdown'
    end
  end

  def handle(adapter, message)
    op = message['op']
    case op
    when 'hello'
      return refusal('unsupported', "this adapter speaks protocol #{PROTOCOL}") unless message['protocol'] == PROTOCOL

      { ok: true, protocol: PROTOCOL, name: adapter.name, version: adapter.version, capabilities: adapter.capabilities }
    when 'reset'
      adapter.reset(message['environment'])
      { ok: true }
    when 'authorization_url', 'sign_in_url'
      return refusal('unsupported', "#{op} is not implemented by this adapter") unless adapter.respond_to?(op)

      attempt(adapter, op) { { ok: true, url: adapter.public_send(op) } }
    when 'tokens'
      { ok: true, tokens: adapter.tokens }
    when 'identity'
      { ok: true, identity: adapter.respond_to?(:identity) ? adapter.identity : nil }
    when 'advance'
      { ok: true } # libfaketime already shows the library the new time
    when 'end', 'shutdown'
      adapter.finish if adapter.respond_to?(:finish)
      { ok: true }
    when 'concurrently'
      { ok: true, outcomes: concurrently(adapter, message['operations']) }
    else
      outcome(adapter, message)
    end
  end

  def outcome(adapter, message)
    op = message['op']
    call = OUTCOMES[op]
    return refusal('unsupported', "#{op} is not implemented by this adapter") unless call && adapter.respond_to?(op)

    attempt(adapter, op) { call.call(adapter, message) }
  end

  # Every operation on a thread of its own, released together, as an application's simultaneous
  # calls are.
  def concurrently(adapter, operations)
    ready = Queue.new
    go = Queue.new
    threads = operations.map do |operation|
      Thread.new do
        ready << true
        go.pop
        outcome(adapter, operation)
      end
    end
    operations.size.times { ready.pop }
    operations.size.times { go << true }
    threads.map(&:value)
  end

  def attempt(adapter, op)
    yield
  rescue StandardError => e
    error = e.is_a?(ClientError) ? e : adapter.classify(e)
    warn "adapter: #{op} failed: #{error.fields[:type]}: #{error.fields[:message]}"
    { ok: false, error: error.fields }
  end

  def refusal(category, message)
    { ok: false, error: { category: category, message: message } }
  end
end
