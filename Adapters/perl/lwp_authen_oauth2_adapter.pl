#!/usr/bin/perl
# LWP::Authen::OAuth2 0.20 (Debian's liblwp-authen-oauth2-perl) behind the adapter protocol, used
# as its POD shows an application using it: a service provider built on the fly from
# authorization_endpoint and token_endpoint, authorization_url + request_tokens(code => ...),
# then get/post/request, which sign the call and refresh by themselves (before expiry, and after
# a 401 whose WWW-Authenticate says invalid_token), and the save_tokens callback with
# token_string to persist the tokens across a restart. The library reads time() and takes no
# clock, so the profile runs this under libfaketime.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/lib";

use HTTP::Request;
use JSON::PP;
use LWP::Authen::OAuth2;
use LWP::UserAgent;
use URI;

use OAuthConformance::Adapter qw(serve client_error);

package LWPAuthenOAuth2Adapter;

use OAuthConformance::Adapter qw(client_error);

sub new { return bless {}, shift }

sub name    { 'LWP::Authen::OAuth2' }
sub version { "$LWP::Authen::OAuth2::VERSION (LWP::UserAgent $LWP::UserAgent::VERSION)" }

# The library has the authorization code grant and nothing else (its request_tokens sends
# grant_type=authorization_code); it refreshes before expiry by itself (early_refresh_time) and
# after a 401 invalid_token, and hands every new token to save_tokens. No concurrency: one
# LWP::Authen::OAuth2 object is not shared between threads in Perl.
sub capabilities { [qw(proactive_refresh refresh_on_401 authorization_code restart custom_ca)] }

sub reset {
    my ($self, $environment) = @_;
    $self->{environment} = $environment;
    $self->{token_file}  = "$environment->{storage_dir}/lwp-authen-oauth2-token.json";
    $self->{state}       = undef;
    $self->{oauth2}      = $self->client(undef);
}

# The constructor as the POD's SYNOPSIS writes it, with the endpoints of a provider "built on
# the fly" and the save_tokens hook it recommends; token_string "for when you have tokens from
# last time".
sub client {
    my ($self, $token_string) = @_;
    my $environment = $self->{environment};
    return LWP::Authen::OAuth2->new(
        client_id              => $environment->{client_id},
        client_secret          => $environment->{client_secret},
        authorization_endpoint => $environment->{authorization_endpoint},
        token_endpoint         => $environment->{token_endpoint},
        redirect_uri           => $environment->{redirect_uri},
        save_tokens            => \&save_tokens,
        save_tokens_args       => [ $self->{token_file} ],
        (defined $token_string ? (token_string => $token_string) : ()),
        user_agent => $self->user_agent,
    );
}

# The user agent the POD lets an application pass: LWP::UserAgent trusting the scenario's CA
# file alone when there is one. Bounded, so that a provider that never answers costs 10 s.
sub user_agent {
    my ($self) = @_;
    my $ca_file = $self->{environment}{ca_file};
    return LWP::UserAgent->new(
        timeout  => 10,
        ssl_opts => { verify_hostname => 1, (defined $ca_file ? (SSL_ca_file => $ca_file) : ()) },
    );
}

# save_tokens: "Whenever tokens are returned from the service provider, this callback will
# receive a token string that can be stored". The application stores it in its storage_dir.
sub save_tokens {
    my ($token_string, $token_file) = @_;
    open(my $file, '>', $token_file) or die "cannot write $token_file: $!";
    print {$file} $token_string;
    close($file);
}

sub saved_token_string {
    my ($self) = @_;
    open(my $file, '<', $self->{token_file}) or return undef;
    local $/;
    return scalar <$file>;
}

sub login {
    my ($self, $grant) = @_;
    # refresh_access_token is the call the Overview points to ("look in the source for the
    # refresh_access_token method"); the library has no password or client_credentials grant.
    return $self->{oauth2}->refresh_access_token() if $grant eq 'refresh_token';
    die client_error(category => 'unsupported', message => "LWP::Authen::OAuth2 has no $grant grant");
}

# The Overview: the state is "a random piece of information for each request", created by the
# consumer, who must "check that you get it back". The library takes it as a parameter.
sub authorization_url {
    my ($self) = @_;
    $self->{state} = join '', map { sprintf '%02x', int rand 256 } 1 .. 16;
    return $self->{oauth2}->authorization_url(state => $self->{state});
}

# The redirect is the application's to read ("This might be a CGI parameter ... that's between
# you and the service provider"): it checks the state it made, then hands the code to
# request_tokens, as the SYNOPSIS does.
sub complete_authorization {
    my ($self, $redirect_url) = @_;
    my %query = URI->new($redirect_url)->query_form;
    my $expected = delete $self->{state};
    die client_error(category => 'protocol', message => 'the state of the redirect is not the one this authorization sent')
        unless defined $expected and defined $query{state} and $query{state} eq $expected;
    $self->{oauth2}->request_tokens(code => $query{code});
}

sub request {
    my ($self, $method, $url, $headers, $body) = @_;
    my $request = HTTP::Request->new($method, $url, [ %{ $headers // {} } ], $body);
    my $response = $self->{oauth2}->request($request);
    # LWP answers a failure of its own (no connection, a TLS handshake refused) with a response it
    # made up, marked "Client-Warning: Internal response"; the application reads it as that.
    if (($response->header('Client-Warning') // '') eq 'Internal response') {
        my $message = $response->status_line . ': ' . $response->decoded_content;
        die client_error(category => transport_category($message), message => $message, type => 'LWP internal response');
    }
    return (0 + $response->code, $response->decoded_content // "");
}

sub restart {
    my ($self) = @_;
    # A relaunched application: a new object from what save_tokens stored, nothing from memory.
    $self->{state}  = undef;
    $self->{oauth2} = $self->client($self->saved_token_string);
}

# A saved session handed over as token_string, the form the library serializes its tokens in
# (token_string(): its access token's fields and _class): the expiry as expires_in counted
# from create_time, now.
sub restore_tokens {
    my ($self, $saved) = @_;
    my $now = time();
    my %token = (
        _class       => 'LWP::Authen::OAuth2::AccessToken::Bearer',
        access_token => $saved->{access_token},
        token_type   => $saved->{token_type},
        create_time  => $now,
        (defined $saved->{refresh_token} ? (refresh_token => $saved->{refresh_token}) : ()),
        (defined $saved->{expires_at} ? (expires_in => $saved->{expires_at} - $now) : ()),
        (defined $saved->{scope} ? (scope => $saved->{scope}) : ()),
    );
    my $token_string = JSON::PP->new->canonical->encode(\%token);
    save_tokens($token_string, $self->{token_file});    # what the application keeps in its storage
    $self->{oauth2} = $self->client($token_string);
}

sub tokens {
    my ($self) = @_;
    my $token = $self->{oauth2}->access_token or return undef;
    return {
        access_token  => $token->{access_token},
        refresh_token => $token->{refresh_token},
        expires_at    => $token->expires_time + 0,    # create_time + (expires_in || 3600), as should_refresh reads it
    };
}

# The library reports every failure by croak with a message (its default error_handler): an RFC
# 6749 §5.2 code only as words ("OAuth2 error: invalid_grant"), the token endpoint's status only as
# a "Status:" line. So no oauth_error and no status field: the category says what the words say.
sub classify {
    my ($self, $error) = @_;
    my $message = "$error";
    # Perl's own errors raised inside the library (a method called on undef): a crash, whose
    # location (a line of the library) is kept.
    return client_error(category => 'unexpected', message => $message =~ s/, <STDIN> line \d+\.\n?\z/./r, type => 'Perl runtime error')
        if $message =~ /^(Can't (call|locate object) method|Can't use an undefined value|Not an? \w+ reference|Undefined subroutine)/;
    $message =~ s/ at \S+ line \d+(, <STDIN> line \d+)?\.?\n?\z//;    # croak's location (the caller's), not the library's words
    return client_error(category => 'oauth_error', message => $message) if $message =~ /^OAuth2 error: /;
    if ($message =~ /^Token endpoint gave invalid JSON/ and $message =~ /^Status: (\d{3})/m) {
        my $status = $1;
        return client_error(category => transport_category($message), message => $message)
            if $message =~ /^Status: 500 (Can't connect|Server closed connection|read timeout|.*SSL)/m;
        return client_error(category => ($status >= 500 || $status == 429 ? 'transient' : 'protocol'), message => $message);
    }
    return client_error(category => 'protocol', message => $message);
}

# What LWP's made-up 500 says went wrong: the certificate (tls) or the connection (transient).
sub transport_category {
    my ($message) = @_;
    return $message =~ /certificate verify failed|SSL connect attempt failed|SSL routines/ ? 'tls' : 'transient';
}

package main;

OAuthConformance::Adapter::serve(LWPAuthenOAuth2Adapter->new);
