package ProbeServer;

# A throwaway provider for the probes: an HTTP::Daemon on 127.0.0.1 (port 0) in a child process,
# answering each request with what the probe's handler returns, and printing each request it
# got (method, path, Authorization, the token request's form) so that the probe's output shows
# what the library sent. Everything is bounded: the child exits after 20 s whatever happens, and
# the probe itself dies after 20 s (alarm).

use strict;
use warnings;

use Exporter qw(import);
use HTTP::Daemon;
use HTTP::Response;
use JSON::PP;
use LWP::Authen::OAuth2;
use URI;

our @EXPORT_OK = qw(json_response saved_token oauth2 verdict);

$| = 1;
alarm 20;

# start(sub { my ($request, $number, $url) = @_; ...; return $response }): the handler returns an
# HTTP::Response, or a plain string to be written to the socket as it is (bytes that are not HTTP).
sub start {
    my ($class, $handler) = @_;
    my $daemon = HTTP::Daemon->new(LocalAddr => '127.0.0.1', LocalPort => 0, ReuseAddr => 1, Timeout => 20)
        or die "cannot listen: $!";
    my $url = 'http://127.0.0.1:' . $daemon->sockport;
    my $pid = fork // die "cannot fork: $!";
    if ($pid == 0) {
        alarm 20;
        my $number = 0;
        while (my $connection = $daemon->accept) {
            while (my $request = $connection->get_request) {
                $number++;
                print "  server $url #$number: ", describe($request), "\n";
                my $answer = $handler->($request, $number, $url);
                if (ref $answer) {
                    $connection->send_response($answer);
                }
                else {
                    print {$connection} $answer;
                    last;
                }
            }
            $connection->close;
        }
        exit 0;
    }
    close $daemon;
    return bless { pid => $pid, url => $url }, $class;
}

sub url { $_[0]{url} }

sub stop {
    my ($self) = @_;
    kill 'TERM', $self->{pid};
    waitpid $self->{pid}, 0;
}

sub describe {
    my ($request) = @_;
    my $text = $request->method . ' ' . $request->uri->path_query;
    $text .= ' Authorization: ' . $request->header('Authorization') if defined $request->header('Authorization');
    if ($request->method eq 'POST') {
        my %form = URI->new('?' . $request->content)->query_form;
        $text .= ' ' . join ' ', map { "$_=" . ($_ eq 'client_secret' ? '***' : $form{$_}) } sort keys %form;
    }
    return $text;
}

sub json_response {
    my ($status, $body, %headers) = @_;
    my $response = HTTP::Response->new($status, undef, [ 'Content-Type' => 'application/json', %headers ]);
    $response->content(ref $body ? JSON::PP->new->canonical->encode($body) : $body);
    return $response;
}

# What an application restores from its storage (the POD's token_string): a Bearer token issued
# $age seconds ago, living $expires_in seconds.
sub saved_token {
    my (%token) = @_;
    my $age = delete $token{age} // 0;
    return JSON::PP->new->canonical->encode({
        _class       => 'LWP::Authen::OAuth2::AccessToken::Bearer',
        token_type   => 'Bearer',
        access_token => 'at-1',
        refresh_token => 'rt-1',
        expires_in   => 3600,
        create_time  => time() - $age,
        %token,
    });
}

# The client as the POD's SYNOPSIS builds it, for a provider built on the fly at $url.
sub oauth2 {
    my ($url, %options) = @_;
    return LWP::Authen::OAuth2->new(
        client_id              => 'probe-client',
        client_secret          => 'probe-secret',
        authorization_endpoint => "$url/authorize",
        token_endpoint         => "$url/token",
        redirect_uri           => 'http://127.0.0.1/callback',
        %options,
    );
}

# The probe's last line and exit status: confirmed (0) or not confirmed (1).
sub verdict {
    my ($confirmed, $claim, $otherwise) = @_;
    if ($confirmed) {
        print "confirmed: $claim\n";
        exit 0;
    }
    print "not confirmed: $otherwise\n";
    exit 1;
}

1;
