package OAuthConformance::Adapter;

# The OAuthConformance adapter protocol for Perl client libraries (docs/adapter-protocol.md):
# one JSON message a line on stdin, one JSON answer a line on stdout. A library adapter is an
# object with the operations its library can do (reset, login, authorization_url,
# complete_authorization, request, restart, tokens, restore_tokens) and a classify method that
# turns what the library died with into the error the protocol reports; serve($adapter) does the
# rest. An operation the adapter lacks answers `unsupported`.
#
# An operation that dies is the library's outcome (ok: false), classified; a message the adapter
# cannot handle at all (reset, a bug of its own) is a fault, which ends the scenario as an error.

use strict;
use warnings;

use Exporter qw(import);
use JSON::PP;
use Scalar::Util qw(blessed);

our @EXPORT_OK = qw(serve client_error);

use constant PROTOCOL => 1;

# An error as the protocol reports it: what the library surfaced (oauth_error, status, type,
# message) and, for what neither code nor status tells, a category.
sub client_error {
    my (%fields) = @_;
    return bless {%fields}, 'OAuthConformance::ClientError';
}

my $json = JSON::PP->new->utf8->canonical->allow_nonref;

sub serve {
    my ($adapter) = @_;

    # The protocol owns the real stdout; anything the library prints goes to stderr.
    open(my $protocol, '>&', \*STDOUT) or die "cannot keep stdout: $!";
    open(STDOUT, '>&', \*STDERR) or die "cannot point stdout at stderr: $!";
    $protocol->autoflush(1);
    STDERR->autoflush(1);

    while (my $line = <STDIN>) {
        next unless $line =~ /\S/;
        my $message = $json->decode($line);
        my $op = $message->{op} // '';
        print STDERR "adapter: <- $op\n";
        my $answer = eval { handle($adapter, $message) };
        $answer = { fault => "adapter fault in $op: $@" } unless $answer;
        $answer->{id} = $message->{id};
        print {$protocol} $json->encode($answer), "\n";
        last if $op eq 'shutdown';
    }
}

sub handle {
    my ($adapter, $message) = @_;
    my $op = $message->{op};
    if ($op eq 'hello') {
        return { ok => JSON::PP::false, error => { category => 'unsupported', message => 'this adapter speaks protocol ' . PROTOCOL } }
            unless ($message->{protocol} // 0) == PROTOCOL;
        return { ok => JSON::PP::true, protocol => PROTOCOL, name => $adapter->name,
            version => $adapter->version, capabilities => $adapter->capabilities };
    }
    if ($op eq 'reset') {
        $adapter->reset($message->{environment});
        return { ok => JSON::PP::true };
    }
    if ($op eq 'authorization_url' or $op eq 'sign_in_url') {
        return failure(client_error(category => 'unsupported', message => "$op is not implemented by this adapter"))
            unless $adapter->can($op);
        return attempt($adapter, $op, sub { { ok => JSON::PP::true, url => $adapter->$op() } });
    }
    if ($op eq 'tokens') {
        return { ok => JSON::PP::true, tokens => $adapter->tokens };
    }
    if ($op eq 'identity') {
        return { ok => JSON::PP::true, identity => ($adapter->can('identity') ? $adapter->identity : undef) };
    }
    if ($op eq 'advance') {
        return { ok => JSON::PP::true };    # libfaketime already shows the library the new time
    }
    if ($op eq 'end' or $op eq 'shutdown') {
        $adapter->end if $adapter->can('end');
        return { ok => JSON::PP::true };
    }
    return outcome($adapter, $message);
}

# The operations that answer an outcome: what the library did, or the error it surfaced.
sub outcome {
    my ($adapter, $message) = @_;
    my $op = $message->{op};
    my %calls = (
        login                  => sub { $adapter->login($message->{grant}); { ok => JSON::PP::true, status => 200 } },
        complete_authorization => sub { $adapter->complete_authorization($message->{redirect_url}); { ok => JSON::PP::true, status => 200 } },
        restore_tokens         => sub { $adapter->restore_tokens($message); { ok => JSON::PP::true } },
        restart                => sub { $adapter->restart; { ok => JSON::PP::true } },
        request                => sub {
            my ($status, $body) = $adapter->request(@{$message}{qw(method url headers body)});
            { ok => JSON::PP::true, status => $status, body => $body };
        },
    );
    my $call = $calls{$op};
    return failure(client_error(category => 'unsupported', message => "$op is not implemented by this adapter"))
        unless $call and $adapter->can($op);
    return attempt($adapter, $op, $call);
}

sub attempt {
    my ($adapter, $op, $call) = @_;
    my $answer = eval { $call->() };
    return $answer if $answer;
    my $error = $@;
    $error = $adapter->classify($error) unless blessed($error) and $error->isa('OAuthConformance::ClientError');
    print STDERR "adapter: $op failed: ", ($error->{message} // ''), "\n";
    return failure($error);
}

sub failure {
    my ($error) = @_;
    my %fields = map { defined $error->{$_} ? ($_ => $error->{$_}) : () } qw(category oauth_error status type message);
    return { ok => JSON::PP::false, error => \%fields };
}

1;
