#!/usr/bin/perl
# Claim: a token answered with expires_in -60 is expired on arrival (expires_time is
# create_time + expires_in, AccessToken.pm:28-29), so the library refreshes before every call
# (AccessToken.pm:80-84): two calls, two refreshes, each answered with -60 again.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 verdict);

my $issued = 0;
my $server = ProbeServer->start(sub {
    my ($request, $number) = @_;
    return json_response(200, { access_token => "at-$number", token_type => 'Bearer', expires_in => -60, refresh_token => 'rt-1' })
        if $request->uri->path eq '/token';
    return json_response(200, { ok => 1 });
});

my $oauth2 = oauth2($server->url);
$oauth2->request_tokens(code => 'code-1');
my @tokens;
for my $call (1, 2) {
    $oauth2->get($server->url . '/resource');
    push @tokens, $oauth2->access_token->{access_token};
    print "call $call went out with ", $tokens[-1], "\n";
}
$server->stop;
verdict($tokens[0] ne 'at-1' && $tokens[1] ne $tokens[0],
    'with expires_in -60 every call is preceded by a refresh',
    'the token was used without refreshing: ' . join(', ', @tokens));
