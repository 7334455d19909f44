#!/usr/bin/perl
# Claim (the application's part): the library builds the authorization URL and redeems a code,
# and nothing more. Its default parameters (ServiceProvider.pm:376-398) have no PKCE
# (no code_challenge in the URL, no code_verifier in the token request); it never sees the
# redirect, so iss and error are the application's to read; and request_tokens, given the
# undefined code of a redirect that carries error=access_denied, croaks "Cannot pass undef for
# required param 'code'" (ServiceProvider.pm:147).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use URI;
use ProbeServer qw(json_response oauth2 verdict);

my $server = ProbeServer->start(sub {
    json_response(200, { access_token => 'at-1', token_type => 'Bearer', expires_in => 3600, refresh_token => 'rt-1' });
});
my $oauth2 = oauth2($server->url);
my $url = $oauth2->authorization_url(state => 'probe-state');
my %query = URI->new($url)->query_form;
print "authorization_url: $url\n";
$oauth2->request_tokens(code => 'code-1');
print "request_tokens(code => 'code-1') redeemed it: the library holds ", $oauth2->access_token->{access_token}, "\n";
my %denied = URI->new('http://127.0.0.1/callback?error=access_denied&state=probe-state&iss=' . $server->url)->query_form;
eval { oauth2($server->url)->request_tokens(code => $denied{code}) };
(my $denial = $@) =~ s/\n+/ | /g;
print "request_tokens with the code of a redirect carrying error=access_denied died with: $denial\n";
$server->stop;
verdict(!exists $query{code_challenge} && $denial =~ /^Cannot pass undef for required param 'code'/,
    'no PKCE in the authorization URL or the token request, the redirect left to the application, and a denied authorization answered by a croak about an undefined code',
    'the library sent PKCE or read the redirect');
